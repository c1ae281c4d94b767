import * as vscode from 'vscode';
import { notify } from '../notify';

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

/**
 * Inserts at the cursor of the editor the user was working in, replacing its selections, and
 * scrolls the insertion into view. When there is no such editor, or it is read-only, says so and
 * offers to open the code in a new editor instead.
 */
export async function insertCode(code: string, fenceLanguage?: string): Promise<void> {
  const editor = insertionTarget();
  if (!editor) {
    return offerNewEditor(vscode.l10n.t('There is no open file to insert the code into.'), code, fenceLanguage);
  }
  const version = editor.document.version;
  const applied = await editor
    .edit((edit) => {
      for (const selection of editor.selections) edit.replace(selection, code);
    })
    .then(
      (applied) => applied,
      () => false,
    );
  // An editor made read-only by `files.readonlyInclude` reports the edit applied and changes nothing.
  const inserted = applied && editor.document.version !== version;
  if (!inserted) {
    const name = vscode.workspace.asRelativePath(editor.document.uri);
    return offerNewEditor(vscode.l10n.t('The code could not be inserted: {0} is read-only.', name), code, fenceLanguage);
  }
  editor.revealRange(editor.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/**
 * The active text editor; else the last one the user was in, if it is still on screen; else the
 * text editor shown in the editor group the user was in last. Never just any visible editor: the
 * code would land in a file the user did not mean.
 */
function insertionTarget(): vscode.TextEditor | undefined {
  const visible = vscode.window.visibleTextEditors;
  if (vscode.window.activeTextEditor) return vscode.window.activeTextEditor;
  if (lastTextEditor && visible.includes(lastTextEditor)) return lastTextEditor;
  const group = vscode.window.tabGroups.activeTabGroup;
  const input = group.activeTab?.input;
  if (!(input instanceof vscode.TabInputText)) return undefined;
  return visible.find((editor) => editor.viewColumn === group.viewColumn && editor.document.uri.toString() === input.uri.toString());
}

async function offerNewEditor(message: string, code: string, fenceLanguage?: string): Promise<void> {
  const openInNewEditor = vscode.l10n.t('Open in new editor');
  if ((await notify('warning', message, [openInNewEditor])) === openInNewEditor) {
    await openCode(code, fenceLanguage);
  }
}

/** Opens the code in a new untitled editor with the fence's language, when VS Code knows it. */
export async function openCode(code: string, fenceLanguage?: string): Promise<void> {
  const known = await vscode.languages.getLanguages();
  const language = fenceLanguage && languageIdFor(fenceLanguage, known);
  const document = await vscode.workspace.openTextDocument({ content: code, language });
  await vscode.window.showTextDocument(document, { preview: false });
}

const ALIASES: Record<string, string> = {
  ts: 'typescript',
  js: 'javascript',
  py: 'python',
  sh: 'shellscript',
  bash: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  yml: 'yaml',
  'c++': 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  rs: 'rust',
  kt: 'kotlin',
  md: 'markdown',
  golang: 'go',
  html: 'html',
  xml: 'xml',
};

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
