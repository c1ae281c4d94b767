import type { ChatClient, ChatDependencies } from './chatDependencies';
import type { StoredTurn } from './storedTurns';
import { pictureIdsOf } from './conversations';
import { messageOf } from '../base/errorMessage';

/**
 * The pictures of the model's replies, downloaded into the image store with the token: once a reply
 * ends, and again for a finished reply whose pictures are not on disk (a download that failed, as a
 * network blip at the wrong moment lost the picture for good; a storage folder cleaned up) when its
 * conversation is shown. A missing one is asked for once per window: a chat opened again and again
 * does not ask again and again for a file the service no longer has.
 */
export class ReplyPictures {
  private readonly asked = new Set<string>();

  constructor(private readonly chat: Pick<ChatDependencies, 'pictures' | 'clients' | 'describeError' | 'texts' | 'log'>) {}

  /**
   * Downloads the pictures of a reply that has just ended. A failure becomes the turn's notice;
   * stopped meanwhile (`signal`), the turn is marked stopped.
   */
  async downloadFor(turn: StoredTurn, signal: AbortSignal): Promise<void> {
    const pictureIds = pictureIdsOf([turn]);
    if (pictureIds.length === 0) return;
    try {
      await this.chat.pictures.download(await this.chat.clients.get(), pictureIds, signal);
    } catch (error) {
      const described = this.chat.describeError(error);
      // Stopped while the picture downloaded: the reply says it was stopped, no other notice needed.
      if (described.kind === 'cancelled') turn.status = 'stopped';
      else turn.notice = this.chat.texts.pictureNotDownloaded(described.message);
    }
  }

  /**
   * Downloads the pictures of `turns`' finished replies that are not among `shown` and were not
   * asked for yet; resolves the turns that were missing one and now have all of theirs.
   */
  async fetchMissing(turns: readonly StoredTurn[], shown: ReadonlySet<string>): Promise<StoredTurn[]> {
    const lacking = turns
      .filter((turn) => turn.status !== 'streaming')
      .map((turn) => ({ turn, missing: pictureIdsOf([turn]).filter((id) => !shown.has(id)) }))
      .filter(({ missing }) => missing.some((id) => !this.asked.has(id)));
    if (lacking.length === 0) return [];
    let client: ChatClient;
    try {
      client = await this.chat.clients.get();
    } catch (error) {
      // No key or no connection yet: the next time the chat is shown tries again.
      this.chat.log.info(`Pictures missing from disk are not downloaded now: ${messageOf(error)}`);
      return [];
    }
    const completed: StoredTurn[] = [];
    for (const { turn, missing } of lacking) {
      let complete = true;
      for (const id of missing) {
        if (await this.chat.pictures.has(id)) continue;
        if (this.asked.has(id)) complete = false;
        else complete = (await this.download(client, id)) && complete;
      }
      if (complete) completed.push(turn);
    }
    return completed;
  }

  private async download(client: ChatClient, id: string): Promise<boolean> {
    this.asked.add(id);
    try {
      await this.chat.pictures.download(client, [id]);
      this.chat.log.info(`Picture ${id} was missing from disk: downloaded again`);
      return true;
    } catch (error) {
      this.chat.describeError(error); // logs the reason and the request id
      this.chat.log.warn(`Picture ${id} is missing from disk and could not be downloaded again`);
      return false;
    }
  }
}
