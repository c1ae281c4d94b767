import { applyChunk, type ChatReply } from './chatReply';
import { parseMediaReply, stableStreamingPrefix } from './mediaReply';
import type { ChatChunk } from './schemas';
import { linkSourceMarkers, markdownLinkTarget, stableSourcePrefix, webSourceList, type WebSource } from './webSources';

/** What stands in a text reply for what text cannot show. */
export interface ReplyTextNotes {
  /** In place of a picture the model drew. */
  picture: string;
  /** Heads the list of the pages a web answer cites. */
  sources: string;
}

/**
 * Reads a streamed reply for a caller that can show only text (VS Code's language model API):
 * `onText` gets each new piece as it arrives, never half a media tag or a web answer's marker; a
 * picture the model drew is shown as a note; a marker citing pages as their numbers, and the pages
 * themselves, numbered links, after the answer (they come with its end). A reasoning model's
 * thinking goes to `onReasoning` as it arrives, when there is one, and never into the text.
 * Resolves to the whole reply (its function call, if the model made one).
 */
export async function readReplyText(
  chunks: AsyncIterable<ChatChunk>,
  notes: ReplyTextNotes,
  onText: (text: string) => void,
  onReasoning?: (text: string) => void,
): Promise<ChatReply> {
  const text = new ReplyText(notes, onText, onReasoning);
  let reply: ChatReply = { content: '' };
  for await (const chunk of chunks) {
    reply = applyChunk(reply, chunk);
    text.grow(reply);
  }
  text.end(reply);
  return reply;
}

/** readReplyText's reading, for a caller that folds the chunks itself: `grow` with each state of the reply, `end` with the last. */
export class ReplyText {
  private shown = '';
  private thought = 0;

  constructor(
    private readonly notes: ReplyTextNotes,
    private readonly onText: (text: string) => void,
    private readonly onReasoning?: (text: string) => void,
  ) {}

  grow(reply: ChatReply): void {
    const reasoning = reply.reasoning ?? '';
    if (this.onReasoning && reasoning.length > this.thought) this.onReasoning(reasoning.slice(this.thought));
    this.thought = reasoning.length;
    this.show(this.readable(stableSourcePrefix(stableStreamingPrefix(reply.content))));
  }

  /** The reply is whole: the rest of its text, then the pages it cites. */
  end(reply: ChatReply): void {
    this.show(this.readable(reply.content));
    const sources = webSourceList(reply.sources);
    if (sources.length > 0) this.onText(`\n\n**${this.notes.sources}**\n\n${sources.map(sourceLine).join('\n')}\n`);
  }

  private show(text: string): void {
    if (text.length <= this.shown.length) return;
    this.onText(text.slice(this.shown.length));
    this.shown = text;
  }

  private readable(content: string): string {
    return parseMediaReply(linkSourceMarkers(content, []))
      .parts.map((part) => (part.type === 'text' ? part.text : `\n\n${this.notes.picture}\n\n`))
      .join('');
  }
}

/** A page in the list of sources: its title linked to it; an address too long to link, as text after the title. */
function sourceLine(source: WebSource): string {
  const target = markdownLinkTarget(source.url);
  const title = markdownText(source.title);
  return target ? `${source.number}. [${title}](${target}) · ${source.host}` : `${source.number}. ${title} · ${source.host}: ${markdownText(source.url)}`;
}

/** A title as link text: the characters Markdown would read as syntax, escaped. */
function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>]/g, '\\$&');
}
