import type { ServiceClient } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { describeError } from '../errors';
import type { Log } from '../log';
import type { StoredTurn } from './conversationStore';
import type { ImageStore } from './imageStore';
import { pictureIdsOf } from './viewTurns';

/**
 * Pictures of finished replies that are not on disk: a download that failed (a network blip at the
 * wrong moment lost the picture for good), or a storage folder cleaned up. They are downloaded
 * again when their conversation is shown, each once per window: a chat opened again and again does
 * not ask again and again for a file the service no longer has.
 */
export class MissingPictures {
  private readonly asked = new Set<string>();

  constructor(
    private readonly images: ImageStore,
    private readonly clients: ClientProvider,
    private readonly log: Log,
  ) {}

  /**
   * Downloads the pictures of `turns`' finished replies that are not among `shown` and were not
   * asked for yet; resolves the turns that were missing one and now have all of theirs.
   */
  async fetch(turns: readonly StoredTurn[], shown: ReadonlySet<string>): Promise<StoredTurn[]> {
    const lacking = turns.filter((turn) => turn.status !== 'streaming' && pictureIdsOf([turn]).some((id) => !shown.has(id) && !this.asked.has(id)));
    if (lacking.length === 0) return [];
    let client: ServiceClient;
    try {
      client = await this.clients.get();
    } catch (error) {
      // No key or no connection yet: the next time the chat is shown tries again.
      this.log.info(`Pictures missing from disk are not downloaded now: ${(error as Error).message}`);
      return [];
    }
    const completed: StoredTurn[] = [];
    for (const turn of lacking) {
      let complete = true;
      for (const id of pictureIdsOf([turn])) {
        if (shown.has(id) || (await this.images.has(id))) continue;
        if (this.asked.has(id)) complete = false;
        else complete = (await this.download(client, id)) && complete;
      }
      if (complete) completed.push(turn);
    }
    return completed;
  }

  private async download(client: ServiceClient, id: string): Promise<boolean> {
    this.asked.add(id);
    try {
      await this.images.download(client, [id]);
      this.log.info(`Picture ${id} was missing from disk: downloaded again`);
      return true;
    } catch (error) {
      describeError(error, this.log); // logs the reason and the request id
      this.log.warn(`Picture ${id} is missing from disk and could not be downloaded again`);
      return false;
    }
  }
}
