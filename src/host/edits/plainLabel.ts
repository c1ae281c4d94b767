/**
 * A file's name as a notification shows it. VS Code reads `[text](target)` in a notification's
 * message as a link, and whoever made the repository chose its files' names: `[click](https:…).md`
 * must read as a name, not become a link. A space between `]` and `(` keeps every character in
 * sight and makes no link. (No `vscode` import: unit-tested under Node.)
 */
export function plainLabel(label: string): string {
  return label.replace(/\]\s*\(/g, '] (');
}
