import * as vscode from 'vscode';

/** What the buttons on a code block in a reply do. */
export async function copyCode(code: string): Promise<void> {
  await vscode.env.clipboard.writeText(code);
}

/**
 * The text editor the user was in last. Clicking in the chat view moves focus there, so
 * `activeTextEditor` is empty by the time a button in a reply is pressed.
 */
let lastTextEditor: vscode.TextEditor | undefined;

export function trackLastTextEditor(): vscode.Disposable {
  lastTextEditor = vscode.window.activeTextEditor;
  return vscode.window.onDidChangeActiveTextEditor((editor) => {
    if (editor) lastTextEditor = editor;
  });
}

/** Inserts at the cursor of the last active text editor, replacing its selection. */
export async function insertCode(code: string): Promise<void> {
  const visible = vscode.window.visibleTextEditors;
  const editor = vscode.window.activeTextEditor ?? (lastTextEditor && visible.includes(lastTextEditor) ? lastTextEditor : visible[0]);
  if (!editor) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Open a file to insert the code into.'));
    return;
  }
  await editor.edit((edit) => {
    for (const selection of editor.selections) edit.replace(selection, code);
  });
}

/** Opens the code in a new untitled editor with the fence's language, when VS Code knows it. */
export async function openCode(code: string, fenceLanguage?: string): Promise<void> {
  const known = await vscode.languages.getLanguages();
  const language = fenceLanguage && languageIdFor(fenceLanguage, known);
  const document = await vscode.workspace.openTextDocument({ content: code, language });
  await vscode.window.showTextDocument(document, { preview: false });
}

const ALIASES: Record<string, string> = { ts: 'typescript', js: 'javascript', py: 'python', sh: 'shellscript', bash: 'shellscript', shell: 'shellscript', zsh: 'shellscript', yml: 'yaml', 'c++': 'cpp', cs: 'csharp', 'c#': 'csharp', rs: 'rust', kt: 'kotlin', md: 'markdown', golang: 'go', html: 'html', xml: 'xml' };

function languageIdFor(fence: string, known: readonly string[]): string | undefined {
  const lower = fence.toLowerCase();
  const id = ALIASES[lower] ?? lower;
  return known.includes(id) ? id : undefined;
}

/** Opens a link from a reply only if it is http(s); VS Code itself asks before leaving for the browser. */
export async function openLink(href: string): Promise<boolean> {
  let uri: vscode.Uri;
  try {
    uri = vscode.Uri.parse(href, true);
  } catch {
    return false;
  }
  if (uri.scheme !== 'http' && uri.scheme !== 'https') return false;
  return vscode.env.openExternal(uri);
}
