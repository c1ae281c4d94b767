import { parseMediaReply } from '../service/mediaReply';
import { linkSourceMarkers } from '../service/webSources';
import type { Conversation, StoredTurn } from './storedTurns';

/** A new, empty conversation: its own id, and the session id the service caches its prefix under. */
export function newConversation(): Conversation {
  const now = Date.now();
  return { id: crypto.randomUUID(), title: '', createdAt: now, updatedAt: now, sessionId: crypto.randomUUID(), turns: [] };
}

/** A title from the first user message: its first line, shortened. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ');
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}

/**
 * The file ids of the pictures these turns' replies show: each image, and each video's cover (a
 * video itself is not kept). Read as the view reads the reply, web source markers linked first.
 */
export function pictureIdsOf(turns: readonly StoredTurn[]): string[] {
  return turns.flatMap((turn) =>
    turn.role === 'assistant'
      ? parseMediaReply(linkSourceMarkers(turn.content, [])).parts.flatMap((part) => {
          if (part.type === 'text') return [];
          const pictureId = part.type === 'image' ? part.fileId : part.coverFileId;
          return pictureId ? [pictureId] : [];
        })
      : [],
  );
}

/** The pictures attached to these turns' questions (their files in the picture store). */
export function questionPictureIds(turns: readonly StoredTurn[]): string[] {
  return turns.flatMap((turn) => (turn.role === 'user' ? (turn.pictures ?? []).map((picture) => picture.id) : []));
}

/** The pictures and documents attached to these turns' questions (their files in the picture store). */
export function questionFileIds(turns: readonly StoredTurn[]): string[] {
  const documentIds = turns.flatMap((turn) => (turn.role === 'user' ? (turn.documents ?? []).map((document) => document.id) : []));
  return [...questionPictureIds(turns), ...documentIds];
}

/** Every file the picture store keeps for these turns: the replies' pictures, and the questions' pictures and documents. */
export function storedPictureIds(turns: readonly StoredTurn[]): string[] {
  return [...pictureIdsOf(turns), ...questionFileIds(turns)];
}
