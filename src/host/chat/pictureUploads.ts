import { ATTACHMENTS_REFUSED, ServiceError, fitToRequest } from '../../core';
import type { ChatClient, PictureStore } from './chatDependencies';
import type { StoredTurn } from './storedTurns';

/** The service's file ids of the questions' files, by question (turn id). */
export type QuestionAttachments = ReadonlyMap<string, readonly string[]>;

/** A file attached to a question, as it is uploaded. */
interface QuestionFile {
  question: string;
  id: string;
  name: string;
  type: string;
  kind: 'picture' | 'document';
  bytes: number;
}

/**
 * The questions' pictures and documents as the service knows them: each uploaded (`POST /files`)
 * once, when a reply first needs it, and its file id reused by every later request of this window
 * (the next question, a regenerated or edited reply). Files are scoped by the client id, which is
 * new in every window, so the ids are kept in memory only: after a reload a file is uploaded again
 * when a reply needs it, and never just to be shown (the view shows the stored copy).
 *
 * A request takes at most 10 files, under 20 MB in all (core/attachmentLimits.ts), and the whole
 * conversation goes with every request: when its files no longer fit, the oldest are left out
 * (not uploaded, not attached; their questions still go, as text) and the reply says how many.
 */
export class PictureUploads {
  /** A file's id in the store → its file id at the service. */
  private readonly uploaded = new Map<string, string>();

  constructor(private readonly store: PictureStore) {}

  /** How many of the files these questions send are not uploaded yet. */
  async missing(questions: readonly StoredTurn[]): Promise<number> {
    const { sent } = fitToRequest(await this.filesOf(questions));
    return sent.filter((file) => !this.uploaded.has(file.id)).length;
  }

  /**
   * Uploads what is not uploaded yet; gives each question with files the file ids to attach, and
   * how many of the conversation's earliest files are left out for the request's limits.
   */
  async attachmentsFor(
    client: Pick<ChatClient, 'uploadFile'>,
    questions: readonly StoredTurn[],
    signal: AbortSignal,
  ): Promise<{ attachments: QuestionAttachments; leftOut: number }> {
    const { sent, leftOut } = fitToRequest(await this.filesOf(questions));
    const attachments = new Map<string, string[]>();
    for (const file of sent) {
      const id = await this.upload(client, file, signal);
      attachments.set(file.question, [...(attachments.get(file.question) ?? []), id]);
    }
    return { attachments, leftOut: leftOut.length };
  }

  /**
   * Whether `error` says the service no longer has a file this window uploaded (unknown, or not
   * this client's): then every id is forgotten, so the next attempt uploads the files again.
   */
  forgetIfStale(error: unknown, attachments: QuestionAttachments): boolean {
    const stale = error instanceof ServiceError && error.code === ATTACHMENTS_REFUSED && (error.status === 403 || error.status === 404);
    if (!stale || attachments.size === 0) return false;
    this.uploaded.clear();
    return true;
  }

  /** The questions' files in the order they were attached: each question's picture, then its documents. */
  private async filesOf(questions: readonly StoredTurn[]): Promise<QuestionFile[]> {
    const files: QuestionFile[] = [];
    for (const question of questions) {
      for (const picture of question.pictures ?? []) {
        // A picture kept before sizes were recorded: its size is read from the store once it is needed.
        const bytes = picture.bytes ?? (await this.store.read(picture.id))?.byteLength ?? 0;
        files.push({ question: question.id, ...picture, kind: 'picture', bytes });
      }
      for (const document of question.documents ?? []) files.push({ question: question.id, ...document, kind: 'document' });
    }
    return files;
  }

  private async upload(client: Pick<ChatClient, 'uploadFile'>, file: QuestionFile, signal: AbortSignal): Promise<string> {
    const known = this.uploaded.get(file.id);
    if (known) return known;
    const bytes = await this.store.read(file.id);
    if (!bytes) {
      const what = file.kind === 'picture' ? 'picture' : 'document';
      throw new ServiceError('invalidRequest', `The ${what} ${file.name} attached to the question is no longer stored on this computer.`, {
        code: 'PICTURE_MISSING',
      });
    }
    const { id } = await client.uploadFile(bytes, { filename: file.name, contentType: file.type, signal });
    this.uploaded.set(file.id, id);
    return id;
  }
}
