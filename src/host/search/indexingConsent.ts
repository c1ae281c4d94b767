import * as vscode from 'vscode';
import type { SettingsReader } from '../settings/settingsReader';
import { ReadOnlyDocuments } from '../readOnlyDocuments';
import { consentStanding, type ConsentRecord, type ConsentStanding } from './consentRecord';
import type { UploadConsent } from './indexState';
import type { UploadSummary } from './uploadSummary';
import { countMessage } from '../countMessage';
import { notify } from '../notify';

const CONSENT_KEY = 'gigachat.search.consent';

/**
 * The agreement to send the workspace's files to the service for indexing. Asked with the numbers
 * (files, chunks, characters, tokens) before the first upload; remembered in the workspace's state
 * for the folders the workspace had then and the embeddings model, so saved files are re-indexed
 * without asking again, while a folder added later, or another model (which embeds every chunk
 * again), is asked about before any file is sent (see consentRecord.ts).
 */
export class IndexingConsent implements UploadConsent, vscode.Disposable {
  /** "Show Files": read-only, so closing the list never asks to save it. */
  private readonly fileLists = new ReadOnlyDocuments('gigachat-files', 2);

  constructor(
    private readonly state: vscode.Memento,
    private readonly settings: Pick<SettingsReader, 'get'>,
  ) {}

  dispose(): void {
    this.fileLists.dispose();
  }

  get granted(): boolean {
    return this.standing.kind === 'granted';
  }

  /** The model the workspace was agreed to be indexed with, when the setting names another one now. */
  get otherModel(): string | undefined {
    const standing = this.standing;
    return standing.kind === 'otherModel' ? standing.agreedModel : undefined;
  }

  private get standing(): ConsentStanding {
    return consentStanding(this.state.get<unknown>(CONSENT_KEY), currentFolders(), this.settings.get('embeddingsModel'));
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
    const question = this.question(summary);
    for (let shown = false; ; shown = true) {
      const chosen = await notify('info', question.message, [send, show], { modal: !shown, detail: question.detail });
      if (chosen === send) {
        const agreed: ConsentRecord = { folders: currentFolders(), model: summary.model };
        await this.state.update(CONSENT_KEY, agreed);
        return true;
      }
      if (chosen !== show) return false;
      await this.showFileList(summary);
    }
  }

  /** The question, with what would be sent and what it costs: for a first index, or for the same files with another model. */
  private question(summary: UploadSummary): { message: string; detail: string } {
    const kilobytes = String(Math.max(1, Math.round(summary.characters / 1024)));
    const agreedModel = this.otherModel;
    if (agreedModel !== undefined)
      return {
        message: vscode.l10n.t('Index this workspace again with the {0} model?', summary.model),
        detail: countMessage(
          'The search index was built with the {0} model, and gigachat.embeddingsModel now names {1}. Vectors of two models cannot be compared, ' +
            'so GigaChat sends {2|# file|# files} again ({3|# chunk|# chunks}, about {4} KB of text, about {5|# token|# tokens}) to the GigaChat service. ' +
            'Until you agree, semantic search and codebase context are unavailable; set {0} again to use the index already built.',
          agreedModel,
          summary.model,
          summary.files,
          summary.newChunks,
          kilobytes,
          summary.tokens,
        ),
      };
    return {
      message: vscode.l10n.t('Build a semantic search index of this workspace?'),
      detail: countMessage(
        'To find code by meaning, GigaChat sends {0|# file|# files} ({1|# chunk|# chunks}, {2|# of them new}, about {3} KB of text, ' +
          'about {4|# token|# tokens} for the {5} model) to the GigaChat service, which returns their embeddings. ' +
          'Files excluded by .gitignore, files.exclude and search.exclude, and secret files (.env, keys, credentials) ' +
          'are never sent, and symbolic links are not followed. After this, saved files are re-indexed automatically.',
        summary.files,
        summary.chunks,
        summary.newChunks,
        kilobytes,
        summary.tokens,
        summary.model,
      ),
    };
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
