import { webSourceList, type Conversation, type StoredTurn } from '../../core';
import { replyTextOf } from './viewTurns';

/** The words of the export, in the user's language (the caller translates them). */
export interface MarkdownLabels {
  you: string;
  assistant: string;
  /** "Context: {0}" for the editor context a message came with. */
  context: (label: string) => string;
  picture: string;
  stopped: string;
  /** What a failed reply says, with the reason. */
  failed: (reason: string) => string;
  /** What a reply says that was written without the conversation's first `count` messages. */
  shortened: (count: number) => string;
  /** Heads the pages a web answer cites. */
  sources: string;
}

/**
 * A conversation as one Markdown document, to keep or share: its title, then each turn after a
 * rule, with who wrote it in bold (not a heading: replies have headings of their own). Replies stay
 * as the model wrote them (Markdown already); a picture becomes a note where it stood, and a
 * reply that did not see the whole conversation, or was stopped or failed, says so.
 */
export function conversationMarkdown(conversation: Conversation, labels: MarkdownLabels): string {
  const title = `# ${conversation.title || labels.assistant}`;
  const turns = conversation.turns.map((turn) => turnMarkdown(turn, labels).join('\n\n'));
  return `${[title, ...turns].join('\n\n---\n\n')}\n`;
}

/** The paragraphs of one turn: who wrote it, then what. */
function turnMarkdown(turn: StoredTurn, labels: MarkdownLabels): string[] {
  if (turn.role === 'user') {
    const context = turn.contextLabel ? [`*${labels.context(turn.contextLabel)}*`] : [];
    return [`**${labels.you}**`, ...context, turn.content];
  }
  const paragraphs = [`**${labels.assistant}**`];
  const text = replyTextOf(turn, `*(${labels.picture})*`).trim();
  if (text) paragraphs.push(text);
  const sources = webSourceList(turn.webSources);
  if (sources.length > 0) {
    paragraphs.push(`*${labels.sources}:*\n\n${sources.map((source) => `${source.number}. <${source.url}> (${source.host})`).join('\n')}`);
  }
  if (turn.omittedMessages) paragraphs.push(`*(${labels.shortened(turn.omittedMessages)})*`);
  if (turn.status === 'stopped') paragraphs.push(`*(${labels.stopped})*`);
  if (turn.status === 'error') paragraphs.push(`*(${labels.failed(turn.error?.message ?? '')})*`);
  return paragraphs;
}
