import { ATTACHMENTS_REFUSED, ServiceError } from '../../core';
import type { ChatClient, PictureStore } from './chatDependencies';
import type { StoredTurn } from './conversationStore';

/** The service's file ids of the questions' pictures, by question (turn id). */
export type QuestionAttachments = ReadonlyMap<string, readonly string[]>;

/**
 * The questions' pictures as the service knows them: each uploaded (`POST /files`) once, when a
 * reply first needs it, and its file id reused by every later request of this window (the next
 * question, a regenerated or edited reply). Files are scoped by the client id, which is new in
 * every window, so the ids are kept in memory only: after a reload a picture is uploaded again
 * when a reply needs it, and never just to be shown (the view shows the stored copy).
 */
export class PictureUploads {
  /** A picture's id in the store → its file id at the service. */
  private readonly uploaded = new Map<string, string>();

  constructor(private readonly store: PictureStore) {}

  /** How many of these questions' pictures are not uploaded yet. */
  missing(questions: readonly StoredTurn[]): number {
    return picturesOf(questions).filter((picture) => !this.uploaded.has(picture.id)).length;
  }

  /** Uploads what is not uploaded yet; gives each question with pictures the file ids to attach. */
  async attachmentsFor(client: Pick<ChatClient, 'uploadFile'>, questions: readonly StoredTurn[], signal: AbortSignal): Promise<QuestionAttachments> {
    const attachments = new Map<string, string[]>();
    for (const question of questions) {
      const ids: string[] = [];
      for (const picture of question.pictures ?? []) ids.push(await this.upload(client, picture, signal));
      if (ids.length > 0) attachments.set(question.id, ids);
    }
    return attachments;
  }

  /**
   * Whether `error` says the service no longer has a file this window uploaded (unknown, or not
   * this client's): then every id is forgotten, so the next attempt uploads the pictures again.
   */
  forgetIfStale(error: unknown, attachments: QuestionAttachments): boolean {
    const stale = error instanceof ServiceError && error.code === ATTACHMENTS_REFUSED && (error.status === 403 || error.status === 404);
    if (!stale || attachments.size === 0) return false;
    this.uploaded.clear();
    return true;
  }

  private async upload(client: Pick<ChatClient, 'uploadFile'>, picture: { id: string; name: string; type: string }, signal: AbortSignal): Promise<string> {
    const known = this.uploaded.get(picture.id);
    if (known) return known;
    const bytes = await this.store.read(picture.id);
    if (!bytes)
      throw new ServiceError('invalidRequest', `The picture ${picture.name} attached to the question is no longer stored on this computer.`, {
        code: 'PICTURE_MISSING',
      });
    const { id } = await client.uploadFile(bytes, { filename: picture.name, contentType: picture.type, signal });
    this.uploaded.set(picture.id, id);
    return id;
  }
}

function picturesOf(questions: readonly StoredTurn[]) {
  return questions.flatMap((question) => question.pictures ?? []);
}
