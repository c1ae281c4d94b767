/**
 * The one turn model every surface speaks (the chat panel, Explain Selection, codebase context,
 * `@gigachat` and the language model provider, and the features that come later): a conversation
 * is messages of plain parts. Each surface reads its own shape into these (the panel its stored
 * turns, VS Code its request messages); `serviceConversation.ts` turns them into the service's
 * messages, `fileUploads.ts` uploads their files, and `contract/` writes them on either wire.
 * A reply's reasoning is never a part: what the model thought is not sent back to it.
 */

/** A picture or document of a message, read only when it has to be uploaded. */
export interface ConversationFile {
  /** The same for the same file (its id in a store, or its bytes' hash): a file uploaded once is attached by it again. */
  key: string;
  name: string;
  mimeType: string;
  kind: 'picture' | 'document';
  /** In bytes: the request's limits are judged before anything is read. */
  size: number;
  /** Its bytes; undefined when they are no longer kept. */
  read(): Promise<Uint8Array | undefined>;
}

/**
 * - `text`: what was written (a question with the workspace's passages before it, a reply);
 * - `toolCall` / `toolResult`: a tool the model asked for, and what it gave;
 * - `file`: a picture or document the user attached.
 */
export type ConversationPart =
  | { kind: 'text'; text: string }
  | { kind: 'toolCall'; callId: string; toolName: string; input: Record<string, unknown> }
  | { kind: 'toolResult'; callId: string; text: string }
  | { kind: 'file'; file: ConversationFile };

export interface ConversationMessage {
  role: 'system' | 'user' | 'assistant';
  parts: readonly ConversationPart[];
}

/** What the model reads of a message, as text: its text, tool results and calls' arguments (for counting tokens). */
export function messageText(message: ConversationMessage): string {
  return message.parts
    .map((part) => (part.kind === 'text' || part.kind === 'toolResult' ? part.text : part.kind === 'toolCall' ? JSON.stringify(part.input) : ''))
    .join('\n');
}
