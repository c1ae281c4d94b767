import * as vscode from 'vscode';
import { ReadOnlyDocuments } from '../readOnlyDocuments';
import type { UploadConsent } from './indexState';
import type { UploadSummary } from './uploadSummary';
import { countMessage } from '../countMessage';

const CONSENT_KEY = 'gigachat.search.consent';

/**
 * The agreement to send the workspace's files to the service for indexing. Asked with the numbers
 * (files, chunks, characters) before the first upload; remembered in the workspace's state for the
 * folders the workspace had then, so saved files are re-indexed without asking again, and a folder
 * added later is asked about before any of its files is sent.
 */
export class IndexingConsent implements UploadConsent, vscode.Disposable {
  /** "Show Files": read-only, so closing the list never asks to save it. */
  private readonly fileLists = new ReadOnlyDocuments('gigachat-files', 2);

  constructor(private readonly state: vscode.Memento) {}

  dispose(): void {
    this.fileLists.dispose();
  }

  get granted(): boolean {
    const agreed = this.state.get<unknown>(CONSENT_KEY);
    return Array.isArray(agreed) && currentFolders().every((folder) => agreed.includes(folder));
  }

  /** Forgets the agreement (Clear Index): the next index asks again. */
  async revoke(): Promise<void> {
    await this.state.update(CONSENT_KEY, undefined);
  }

  /**
   * Asks in a modal dialog. "Show Files" opens the list and asks again in a notification, so the
   * list can be read (a modal dialog would block it). Resolves whether the user agreed.
   */
  async ask(summary: UploadSummary): Promise<boolean> {
    if (summary.files === 0) return true; // nothing would be sent (and nothing is agreed to)
    const send = vscode.l10n.t('Send and Index');
    const show = vscode.l10n.t('Show Files');
    for (let shown = false; ; shown = true) {
      const chosen = await vscode.window.showInformationMessage(
        vscode.l10n.t('Build a semantic search index of this workspace?'),
        {
          modal: !shown,
          detail: countMessage(
            'To find code by meaning, GigaChat sends {0|# file|# files} ({1|# chunk|# chunks}, {2|# of them new}, about {3} KB of text) ' +
              'to the GigaChat service, which returns their embeddings. ' +
              'Files excluded by .gitignore, files.exclude and search.exclude, and secret files (.env, keys, credentials) ' +
              'are never sent, and symbolic links are not followed. After this, saved files are re-indexed automatically.',
            summary.files,
            summary.chunks,
            summary.newChunks,
            String(Math.max(1, Math.round(summary.characters / 1024))),
          ),
        },
        send,
        show,
      );
      if (chosen === send) {
        await this.state.update(CONSENT_KEY, currentFolders());
        return true;
      }
      if (chosen !== show) return false;
      await this.showFileList(summary);
    }
  }

  private async showFileList(summary: UploadSummary): Promise<void> {
    const lines = summary.paths.map((key) => `- ${vscode.workspace.asRelativePath(vscode.Uri.parse(key))}`);
    const title = countMessage('Files GigaChat would index ({0|#})', summary.files);
    const list = this.fileLists.add(`${title}.md`, `# ${title}\n\n${lines.join('\n')}\n`);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(list), { preview: true });
  }
}

/** The workspace's folders, as the agreement names them. */
function currentFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString());
}
