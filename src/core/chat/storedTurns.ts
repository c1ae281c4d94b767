import type { Sources } from '../service/schemas';

/**
 * A conversation of the chat as it is kept (the host's conversation store) and worked on by the
 * rest of the chat engine: its turns, their attachments and the passages and sources that go with
 * them. Types only, imported by every part of the chat and importing none of it. The chat view's
 * own shapes (src/shared) are built from these in the host; these know nothing of the view.
 */

/** Where a reply stands: being written, finished, stopped by the user, or failed. */
export type TurnStatus = 'streaming' | 'done' | 'stopped' | 'error';

/** What a failed reply tells the user (already localized), and the buttons the host offers with it. */
export interface ReplyError {
  /** The core's `ServiceErrorKind` (or the host's own, such as `codebase`). */
  kind: string;
  message: string;
  /** The names of the host's error actions (`retry`, `setKey`…). */
  actions: string[];
  requestId?: string;
  /** When the service lets the next request through (epoch ms; its Retry-After). */
  retryAt?: number;
}

/** The tokens a reply cost, as the service counted them. */
export interface TurnUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  precachedTokens?: number;
}

/** Lines of a file of the workspace (a path relative to it, 1-based inclusive lines). */
export interface SourceLines {
  file: string;
  first: number;
  last: number;
}

/** The code an Explain Selection question is about: its file and lines, language and text. */
export interface ExplainedCode extends SourceLines {
  language: string;
  code: string;
}

/** A conversation as the history lists it. */
export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
}

/** One turn as persisted. Assistant content keeps the model's media tags (they are its context). */
export interface StoredTurn {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  status: TurnStatus;
  finishReason?: string;
  usage?: TurnUsage;
  error?: ReplyError;
  contextLabel?: string;
  notice?: string;
  /** An Explain Selection question: the code it is about, shown in place of its prompt (older ones show the prompt). */
  explained?: ExplainedCode;
  /** A question's pictures (pasted, dropped, picked), kept in the picture store: its thumbnails, and what is uploaded with it. */
  pictures?: StoredPicture[];
  /** A question's documents (TXT, PDF, DOCX…), kept in the picture store beside its pictures: its chips, and what is uploaded with it. */
  documents?: StoredDocument[];
  /** A reply for which the conversation had grown too long for the model: how many earlier messages it did not see. */
  omittedMessages?: number;
  /** A question asked with codebase context; what was found for it once its reply started (see codebaseTurn.ts). */
  codebase?: CodebaseContext;
  /** A question the model may answer from the web (the service's search, and reading the pages it names). */
  web?: boolean;
  /** A reply's model as the service named it, version included (`GigaChat-3-Ultra:32.3.18.5`). */
  model?: string;
  /** What a reasoning model thought before it answered: shown apart, never sent back as the answer. */
  reasoning?: string;
  /** The pages a web answer cites, by the number its markers give. */
  webSources?: Sources;
  /** The project's rule files a reply was asked with (workspace labels), shown as chips that open them. */
  rules?: string[];
}

/**
 * The passages of the workspace a question goes with: none until its reply starts and they are
 * found, then kept for a Regenerate (the user may take some out first).
 */
export interface CodebaseContext {
  found?: FoundPassages;
}

/** What the model reads before the question: how to use and cite the passages, each quoted under its citation, and what leads to the question. */
export interface FoundPassages {
  intro: string;
  passages: QuotedSource[];
  outro: string;
}

/** A passage as the model reads it (`quoted`: its citation, then its code in a fence), and where it comes from. */
export interface QuotedSource {
  source: SourceLines;
  quoted: string;
}

/** A picture attached to a question: the file in the picture store, and how the user named it. */
export interface StoredPicture {
  /** The file's name in the picture store (a random id, not the service's: that one is per window). */
  id: string;
  name: string;
  /** Its media type, read from its bytes: one the service takes (`IMAGE_UPLOAD_TYPES`). */
  type: string;
  /** Its size, to keep a request within the service's limits (not known of those kept before documents could be attached). */
  bytes?: number;
}

/** A document attached to a question: the file in the picture store (under its extension), how the user named it, its media type and size. */
export interface StoredDocument {
  id: string;
  name: string;
  /** From its name's extension: one the service takes (`DOCUMENT_TYPES`). */
  type: string;
  bytes: number;
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** Sent as X-Session-ID on every turn, so the service can cache the shared prefix. */
  sessionId: string;
  turns: StoredTurn[];
  /**
   * The turn the model's context starts at, once the whole conversation no longer fit: the turns
   * before it are kept and shown but not sent, so each later reply does not fail first.
   */
  contextFrom?: string;
}

/** A user message, with the editor context that produced it (explain selection). */
export interface Prompt {
  text: string;
  contextLabel?: string;
  notice?: string;
  /** Explain Selection: the code the prompt quotes, shown in its place. */
  explained?: ExplainedCode;
  /** Pictures attached to the message (kept in the picture store). */
  pictures?: StoredPicture[];
  /** Documents attached to the message (kept in the picture store too). */
  documents?: StoredDocument[];
  /** Answer from the workspace's code: passages closest to the question are found and sent with it when its reply starts. */
  codebase?: boolean;
  /** Let the model search the web for the answer, and read the pages the question names. */
  web?: boolean;
}
