/**
 * What VS Code gives a webview besides our own files: the theme's colours as `--vscode-*` variables
 * on <html>, a `vscode-dark` / `vscode-light` class on <body>, and its default webview styles.
 * The values are those of the Dark Modern and Light Modern themes, for the variables the view uses.
 * (VS Code sets the variables through the style attribute from outside the CSP; the harness serves
 * them as a stylesheet, which the CSP allows.)
 */

export type ThemeKind = 'dark' | 'light';

const common: Record<string, string> = {
  'font-family': '-apple-system, BlinkMacSystemFont, "Segoe WPC", "Segoe UI", "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'font-weight': 'normal',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
  'editor-font-size': '13px',
  'editor-font-weight': 'normal',
};

const dark: Record<string, string> = {
  foreground: '#cccccc',
  descriptionForeground: '#9d9d9d',
  disabledForeground: '#cccccc80',
  errorForeground: '#f85149',
  focusBorder: '#0078d4',
  'icon-foreground': '#cccccc',
  'sideBar-background': '#181818',
  'sideBarSectionHeader-border': '#2b2b2b',
  'editor-background': '#1f1f1f',
  'editor-foreground': '#cccccc',
  'editorWidget-background': '#202020',
  'widget-border': '#313131',
  'widget-shadow': '#0000005c',
  'panel-border': '#2b2b2b',
  'input-background': '#313131',
  'input-border': '#3c3c3c',
  'input-foreground': '#cccccc',
  'input-placeholderForeground': '#989898',
  'button-background': '#0078d4',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#026ec1',
  'button-border': '#ffffff12',
  'button-secondaryBackground': '#313131',
  'button-secondaryForeground': '#cccccc',
  'button-secondaryHoverBackground': '#3c3c3c',
  'dropdown-background': '#313131',
  'dropdown-border': '#3c3c3c',
  'dropdown-foreground': '#cccccc',
  'toolbar-hoverBackground': '#5a5d5e50',
  'textLink-foreground': '#4daafc',
  'textLink-activeForeground': '#4daafc',
  'textPreformat-foreground': '#d0d0d0',
  'textPreformat-background': '#3c3c3c',
  'textCodeBlock-background': '#0a0a0a66',
  'textBlockQuote-background': '#2b2b2b',
  'textBlockQuote-border': '#616161',
  'badge-background': '#616161',
  'badge-foreground': '#f8f8f8',
  'list-hoverBackground': '#2a2d2e',
  'list-activeSelectionBackground': '#04395e',
  'list-activeSelectionForeground': '#ffffff',
  'list-inactiveSelectionBackground': '#37373d',
  'quickInput-background': '#222222',
  'quickInput-foreground': '#cccccc',
  'editorWarning-foreground': '#cca700',
  'editorInfo-foreground': '#3794ff',
  'inputValidation-errorBackground': '#5a1d1d',
  'inputValidation-errorBorder': '#be1100',
  'editorCursor-foreground': '#aeafad',
  'debugTokenExpression-name': '#c586c0',
  'debugTokenExpression-string': '#ce9178',
  'debugTokenExpression-number': '#b5cea8',
  'debugTokenExpression-boolean': '#4e94ce',
  'symbolIcon-classForeground': '#ee9d28',
  'symbolIcon-functionForeground': '#b180d7',
  'symbolIcon-variableForeground': '#75beff',
  'symbolIcon-keywordForeground': '#cccccc',
  'gitDecoration-addedResourceForeground': '#81b88b',
  'gitDecoration-deletedResourceForeground': '#c74e39',
  'chat-requestBackground': '#2a2a2a99',
  'chat-requestBorder': '#ffffff1a',
  'scrollbarSlider-background': '#79797966',
  'scrollbarSlider-hoverBackground': '#646464b3',
  'testing-iconPassed': '#73c991',
};

const light: Record<string, string> = {
  foreground: '#3b3b3b',
  descriptionForeground: '#717171',
  disabledForeground: '#61616180',
  errorForeground: '#f85149',
  focusBorder: '#005fb8',
  'icon-foreground': '#3b3b3b',
  'sideBar-background': '#f8f8f8',
  'sideBarSectionHeader-border': '#e5e5e5',
  'editor-background': '#ffffff',
  'editor-foreground': '#3b3b3b',
  'editorWidget-background': '#f8f8f8',
  'widget-border': '#e5e5e5',
  'widget-shadow': '#00000029',
  'panel-border': '#e5e5e5',
  'input-background': '#ffffff',
  'input-border': '#cecece',
  'input-foreground': '#3b3b3b',
  'input-placeholderForeground': '#767676',
  'button-background': '#005fb8',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#0258a8',
  'button-border': '#0000001a',
  'button-secondaryBackground': '#e5e5e5',
  'button-secondaryForeground': '#3b3b3b',
  'button-secondaryHoverBackground': '#cccccc',
  'dropdown-background': '#ffffff',
  'dropdown-border': '#cecece',
  'dropdown-foreground': '#3b3b3b',
  'toolbar-hoverBackground': '#b8b8b850',
  'textLink-foreground': '#005fb8',
  'textLink-activeForeground': '#005fb8',
  'textPreformat-foreground': '#3b3b3b',
  'textPreformat-background': '#0000001f',
  'textCodeBlock-background': '#f3f3f3',
  'textBlockQuote-background': '#f8f8f8',
  'textBlockQuote-border': '#e5e5e5',
  'badge-background': '#cccccc',
  'badge-foreground': '#3b3b3b',
  'list-hoverBackground': '#f2f2f2',
  'list-activeSelectionBackground': '#e8e8e8',
  'list-activeSelectionForeground': '#000000',
  'list-inactiveSelectionBackground': '#e4e6f1',
  'quickInput-background': '#f8f8f8',
  'quickInput-foreground': '#3b3b3b',
  'editorWarning-foreground': '#bf8803',
  'editorInfo-foreground': '#1a85ff',
  'inputValidation-errorBackground': '#f2dede',
  'inputValidation-errorBorder': '#be1100',
  'editorCursor-foreground': '#000000',
  'debugTokenExpression-name': '#9b46b0',
  'debugTokenExpression-string': '#a31515',
  'debugTokenExpression-number': '#098658',
  'debugTokenExpression-boolean': '#0000ff',
  'symbolIcon-classForeground': '#d67e00',
  'symbolIcon-functionForeground': '#652d90',
  'symbolIcon-variableForeground': '#007acc',
  'symbolIcon-keywordForeground': '#3b3b3b',
  'gitDecoration-addedResourceForeground': '#587c0c',
  'gitDecoration-deletedResourceForeground': '#ad0707',
  'chat-requestBackground': '#ffffff',
  'chat-requestBorder': '#0000001a',
  'scrollbarSlider-background': '#64646466',
  'scrollbarSlider-hoverBackground': '#646464b3',
  'testing-iconPassed': '#388a34',
};

/** A subset of VS Code's default webview stylesheet (it is injected into every webview). */
const vscodeDefaults = `
body { background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family);
  font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
a:hover { color: var(--vscode-textLink-activeForeground); }
code { font-family: var(--monaco-monospace-font); color: var(--vscode-textPreformat-foreground);
  background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
::-webkit-scrollbar { width: 10px; height: 10px; }
::-webkit-scrollbar-corner { background-color: var(--vscode-editor-background); }
::-webkit-scrollbar-thumb { background-color: var(--vscode-scrollbarSlider-background); }
::-webkit-scrollbar-thumb:hover { background-color: var(--vscode-scrollbarSlider-hoverBackground); }
`;

export function themeStylesheet(kind: ThemeKind): string {
  const colours = { ...common, ...(kind === 'dark' ? dark : light) };
  const variables = Object.entries(colours)
    .map(([name, value]) => `  --vscode-${name}: ${value};`)
    .join('\n');
  // The view sits in the side bar, whose background shows through the transparent webview.
  return `html {\n${variables}\n  background-color: var(--vscode-sideBar-background);\n}\n${vscodeDefaults}`;
}
