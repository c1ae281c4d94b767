// The one way the host reads the extension's settings, as ESLint rules (read by eslint.config.mjs, and by
// test/unit/project/layers.test.ts, which plants each refused read and expects an error):
//   - services.ts builds one reader (src/host/settings/vscodeSettings.ts) and hands it to each feature as a
//     SettingsReader (src/host/settings/settingsReader.ts); no feature builds its own;
//   - only src/host/settings/ asks VS Code for configuration or listens to its changes.
// A read of one of VS Code's own settings (git's, the editor's, Chat's) stays where it is used, with an
// eslint-disable comment that says whose setting it is: the reader is for the extension's settings.

const OUTSIDE_SETTINGS = "Read the extension's settings through the SettingsReader the feature is handed (src/host/settings/settingsReader.ts).";

const configurationAccess = [
  { selector: 'MemberExpression[property.name=/^(getConfiguration|onDidChangeConfiguration)$/]', message: OUTSIDE_SETTINGS },
  { selector: 'ObjectPattern > Property[key.name=/^(getConfiguration|onDidChangeConfiguration)$/]', message: OUTSIDE_SETTINGS },
];

const readerBuilt = {
  selector: 'ImportDeclaration[source.value=/settings\\/vscodeSettings$/]',
  message: 'services.ts builds the one settings reader; take the SettingsReader handed in.',
};

export const settingsRules = [
  {
    files: ['src/extension.ts', 'src/host/**/*.ts'],
    ignores: ['src/host/settings/**'],
    rules: { 'no-restricted-syntax': ['error', ...configurationAccess, readerBuilt] },
  },
  {
    files: ['src/host/services.ts'],
    rules: { 'no-restricted-syntax': ['error', ...configurationAccess] },
  },
];
