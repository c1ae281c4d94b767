/**
 * A value from outside the extension's own strings (a file or folder name, a setting, the
 * service's or the model's text) as a notification, a dialog or a QuickPick shows it. VS Code
 * reads `[text](https:…|http:…|command:…|file:…)` in a notification's message as a link (its
 * `parseLinkedText`, after turning line breaks into spaces; a bare URL stays text), and a link to
 * `command:` runs any command with arguments, Restricted Mode or not. A space between `]` and `(`
 * keeps every character in sight and makes no link. A notification's whole text goes through here
 * (notify.ts), a QuickPick item's or a progress title's each value from outside (test/unit/project/shownText.test.ts
 * checks each place that shows one). No `vscode` import: unit-tested under Node.
 */
export function plainLabel(label: string): string {
  return label.replace(/\]\s*\(/g, '] (');
}
