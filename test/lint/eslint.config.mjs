// ESLint for the whole project, with typescript-eslint's type-checked rules (they see the types, so
// they catch a floating promise or an `any` leaking out of JSON, which syntax rules cannot).
// Run by `npm run lint` (part of `npm test`). Kept here, not at the top: the project's top level is
// fixed by its design card.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { fileURLToPath } from 'node:url';
import * as path from 'node:path';
import { layerRules } from './layers.mjs';
import { settingsRules } from './settings.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: [path.join(root, 'tsconfig.json'), path.join(root, 'src/core/tsconfig.json')], tsconfigRootDir: root } },
    rules: {
      // `_name` marks what is left unused on purpose (a destructured field dropped, a required parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Passing on an error caught as `unknown` is fine; throwing a string or a plain object is not.
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
    },
  },
  ...layerRules,
  ...settingsRules,
  {
    // Tests read wire bodies with JSON.parse and poke at them: the product's code is held to `unknown`
    // and zod, a test's assertion fails loudly enough on a wrong shape.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      // Fakes implement async interfaces without awaiting anything.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
