import { modelSeesPictures } from '../../serviceFacts/modelFacts';
import type { ConversationFile, ConversationMessage } from '../conversation/turns';
import type { ChatFiles } from './chatDependencies';
import { codebaseText } from './codebasePassages';
import type { Conversation, StoredTurn } from './storedTurns';

/** What the model is sent for one reply, in the core's turn model, and which of the conversation's turns that is. */
export interface SentConversation {
  messages: ConversationMessage[];
  /** The turns in `messages`, in order, after the system prompt (one message each). */
  sent: StoredTurn[];
  /** How many turns before them are left out: the conversation grew too long for the model (`contextFrom`). */
  omitted: number;
  /** Pictures of earlier questions not sent: the model cannot see them (see sentConversation). */
  earlierPicturesLeftOut: number;
}

/**
 * A conversation as one reply is asked with it, read into the one pipeline's turns
 * (core/conversation/): the system prompt first, then the finished turns as they were written,
 * from `contextFrom` on, each question with the passages of the workspace found for it (codebase
 * context) before its text, and its pictures and documents as files read from the store (`files`)
 * when they are uploaded.
 * For a `model` that cannot see pictures, those of earlier questions are left out (and counted):
 * the whole chat goes with every question, and one picture sent once with a text model would
 * have the service refuse every later question of the chat. The question answered keeps its own,
 * so a refusal is about it, as the error then says.
 */
export async function sentConversation(
  conversation: Conversation,
  pending: StoredTurn,
  systemPrompt: string,
  files?: Pick<ChatFiles, 'read'>,
  model?: string,
): Promise<SentConversation> {
  // A failed reply, or an empty stopped one, is not part of what the model said.
  const spoken = conversation.turns.filter((turn) => turn !== pending && !(turn.role === 'assistant' && (turn.status === 'error' || turn.content === '')));
  const omitted = Math.max(
    0,
    spoken.findIndex((turn) => turn.id === conversation.contextFrom),
  );
  const sent = spoken.slice(omitted);
  const system: ConversationMessage[] = systemPrompt.trim() ? [{ role: 'system', parts: [{ kind: 'text', text: systemPrompt.trim() }] }] : [];
  const messages: ConversationMessage[] = [];
  const answered = [...sent].reverse().find((turn) => turn.role === 'user');
  const blind = model !== undefined && !modelSeesPictures(model);
  let earlierPicturesLeftOut = 0;
  for (const turn of sent) {
    if (turn.role === 'assistant') {
      messages.push({ role: 'assistant', parts: [{ kind: 'text', text: turn.content }] });
      continue;
    }
    const context = codebaseText(turn.codebase?.found);
    // The passages first, the question last: the model reads what it is asked right before answering.
    const text = context ? `${context}\n\n${turn.content}` : turn.content;
    let attached = files ? await storedFiles(turn, files) : [];
    if (blind && turn !== answered) {
      earlierPicturesLeftOut += attached.filter((file) => file.kind === 'picture').length;
      attached = attached.filter((file) => file.kind !== 'picture');
    }
    messages.push({ role: 'user', parts: [{ kind: 'text', text }, ...attached.map((file) => ({ kind: 'file' as const, file }))] });
  }
  return { messages: [...system, ...messages], sent, omitted, earlierPicturesLeftOut };
}

/** A question's picture, then its documents, as files read from the store when uploaded. */
async function storedFiles(question: StoredTurn, store: Pick<ChatFiles, 'read'>): Promise<ConversationFile[]> {
  const stored = (kind: ConversationFile['kind'], { id, name, type }: { id: string; name: string; type: string }, size: number): ConversationFile => ({
    key: id,
    name,
    mimeType: type,
    kind,
    size,
    read: () => store.read(id),
  });
  const files: ConversationFile[] = [];
  for (const picture of question.pictures ?? []) {
    // A picture kept before sizes were recorded: its size is read from the store once it is needed.
    files.push(stored('picture', picture, picture.bytes ?? (await store.read(picture.id))?.byteLength ?? 0));
  }
  for (const document of question.documents ?? []) files.push(stored('document', document, document.bytes));
  return files;
}
