import { applyChunk, type ChatReply } from './chatReply';
import { parseMediaReply, stableStreamingPrefix } from './images';
import type { ChatChunk } from './schemas';

/**
 * Reads a streamed reply for a caller that can show only text (VS Code's language model API):
 * `onText` gets each new piece as it arrives, never half a media tag; a picture the model drew
 * with its built-in function (`<img src="<file id>" fuse="true"/>`) is shown as `pictureNote`.
 * Resolves to the whole reply (its function call, if the model made one).
 */
export async function readReplyText(chunks: AsyncIterable<ChatChunk>, pictureNote: string, onText: (text: string) => void): Promise<ChatReply> {
  let reply: ChatReply = { content: '' };
  let shown = '';
  const show = (text: string) => {
    if (text.length <= shown.length) return;
    onText(text.slice(shown.length));
    shown = text;
  };
  const readable = (content: string) =>
    parseMediaReply(content)
      .parts.map((part) => (part.type === 'text' ? part.text : `\n\n${pictureNote}\n\n`))
      .join('');
  for await (const chunk of chunks) {
    reply = applyChunk(reply, chunk);
    show(readable(stableStreamingPrefix(reply.content)));
  }
  show(readable(reply.content));
  return reply;
}
