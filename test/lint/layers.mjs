// The layers of src/ and which way their imports may point, as ESLint rules (read by eslint.config.mjs,
// and by test/unit/project/layers.test.ts, which plants a wrong-way import in each layer and expects an error):
//   serviceFacts/  facts about the service (limits, model families, file ids) that more than one layer
//                  needs: imports nothing outside itself;
//   core/          the service and the index, without VS Code: may import serviceFacts;
//   shared/        the webview protocol, strings and settings' names: may import serviceFacts;
//   webview/       the chat view in the browser: may import shared and serviceFacts;
//   host/          VS Code's side: may import any of them, the core only through its index
//                  (src/core/index.ts), so what the core offers is one list and its insides can move.

/** A relative import that climbs out of its layer into one of `layers`. */
const into = (...layers) => ({ regex: `^(\\.\\./)+(${layers.join('|')})(/|$)`, message: 'This layer may not import that one: see test/lint/layers.mjs.' });

const noVscode = { name: 'vscode', message: 'Only src/host talks to VS Code.' };

export const layerRules = [
  {
    files: ['src/serviceFacts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [into('core', 'shared', 'webview', 'host')] }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [into('shared', 'webview', 'host')] }] },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [into('core', 'webview', 'host')] }] },
  },
  {
    files: ['src/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+core/', message: 'Outside the core, import it through its index (src/core/index.ts).' }] },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode], patterns: [into('core', 'host')] }] },
  },
];
