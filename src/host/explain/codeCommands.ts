import * as vscode from 'vscode';
import type { ChatViewProvider } from '../chat/chatViewProvider';
import { codeAtCursor } from './codeAtCursor';
import { fileExcerpt, relativeFile, selectedExcerpt, type CodeExcerpt } from './codeExcerpts';
import { explainPrompt } from './explain';
import type { Log } from '../log';
import { agreedToSend } from '../workspace/secretFiles';
import { messageOf } from '../../core';
import { notify } from '../notify';

/** The commands that bring code from the editor into the chat. */
export interface CodeCommands {
  /** Explain Selection: the explanation of the selection (or the function or file around the cursor) streams into the chat as a new turn. */
  explainSelection(editor: vscode.TextEditor): Promise<void>;
  /** Add Selection to GigaChat: the selection waits above the input for the question about it. */
  addSelectionToChat(editor: vscode.TextEditor): Promise<void>;
  /** Add File to GigaChat: from the explorer (one file or several selected), an editor tab, or the active editor. */
  addFileToChat(clicked?: unknown, selected?: unknown): Promise<void>;
}

export function codeCommands(chat: ChatViewProvider, log: Log): CodeCommands {
  return {
    async explainSelection(editor) {
      const code = await codeOrHint(editor, vscode.l10n.t('Select some code to explain first.'));
      if (code && (await agreedToSend([editor.document.uri]))) await chat.ask(explainPrompt(editor.document, code));
    },

    async addSelectionToChat(editor) {
      const code = await codeOrHint(editor, vscode.l10n.t('Select the code to ask about first.'));
      if (code && (await agreedToSend([editor.document.uri]))) await chat.attach([selectedExcerpt(editor.document, code)]);
    },

    async addFileToChat(clicked, selected) {
      const uris = filesChosen(clicked, selected);
      if (uris.length === 0) {
        void notify('info', vscode.l10n.t('Open or select the file to add first.'));
        return;
      }
      if (!(await agreedToSend(uris))) return;
      const excerpts: CodeExcerpt[] = [];
      for (const uri of uris) {
        const document = await vscode.workspace.openTextDocument(uri).then(undefined, (error: unknown) => {
          log.warn(`Could not attach ${relativeFile(uri)}: ${messageOf(error)}`);
          return undefined;
        });
        if (document) excerpts.push(fileExcerpt(document));
        else void notify('warning', vscode.l10n.t('{0} was not added to the chat: it is not a text file that VS Code can open.', relativeFile(uri)));
      }
      if (excerpts.length > 0) await chat.attach(excerpts);
    },
  };
}

/** The code the command is about (see codeAtCursor); for an empty file, `hint` tells the user what to do. */
async function codeOrHint(editor: vscode.TextEditor, hint: string): Promise<vscode.Range | undefined> {
  const code = await codeAtCursor(editor);
  if (!code) void notify('info', hint);
  return code;
}

/** The explorer passes the file clicked and all those selected; an editor tab passes its file; the palette passes nothing. */
function filesChosen(clicked: unknown, selected: unknown): vscode.Uri[] {
  const all = Array.isArray(selected) && selected.length > 0 ? selected : [clicked ?? vscode.window.activeTextEditor?.document.uri];
  return all.filter((uri): uri is vscode.Uri => uri instanceof vscode.Uri);
}
