import type { ServiceClient } from '../service/client';
import type { Clock } from '../base/clock';
import type { Logger } from '../base/logger';
import type { ReasoningEffort } from '../service/schemas';
import type { FoundPassages, ReplyError } from './storedTurns';

/**
 * What the chat engine takes from outside: the service, the disk of pictures, the settings, the
 * user's language, the workspace. Types only, so the chat runs under plain Node with stand-ins
 * (test/unit/core/chat/chatController.test.ts); the host's services.ts gives it the real ones.
 */

/** The part of the service client the chat uses: replies, the pictures they draw, and the pictures a question attaches. */
export type ChatClient = Pick<ServiceClient, 'chatStream' | 'fileContent' | 'uploadFile' | 'deleteFile'>;

/** The client as the current settings and key make it; rejects when there is no key or no connection. */
export interface ChatClients {
  get(): Promise<ChatClient>;
}

/** The settings a reply is asked with, read when it starts. */
export interface ChatSettings {
  model: string;
  systemPrompt: string;
  temperature?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
}

/**
 * The pictures the model drew, and the pictures and documents the user attached, kept on disk (the
 * host's ImageStore), as the engine uses them: the host's store also keeps what the user attaches
 * and shows the pictures in its view.
 */
export interface ChatFiles {
  has(fileId: string): Promise<boolean>;
  /** A stored file's bytes; undefined when it is not stored. */
  read(fileId: string): Promise<Uint8Array | undefined>;
  /** Downloads each file not already stored. */
  download(client: Pick<ServiceClient, 'fileContent'>, fileIds: readonly string[], signal?: AbortSignal): Promise<void>;
  /** Deletes the stored pictures whose file id is not in `kept`; how many it deleted. */
  removeAllBut(kept: ReadonlySet<string>): Promise<number>;
}

/** The user-facing texts the chat writes itself (the host's localized strings). */
export interface ChatTexts {
  /** A reply's notice when its picture could not be downloaded, with the reason. */
  pictureNotDownloaded(reason: string): string;
  /** A reply's notice while the files attached to the questions are uploaded. */
  uploadingPictures(count: number): string;
  /** A reply's notice: the conversation's `count` earliest attached files did not go with it (the request's limits). */
  filesLeftOut(count: number): string;
  /** A reply's notice: `model` cannot see pictures, so the `count` pictures of earlier questions were not sent with this one. */
  earlierPicturesLeftOut(count: number, model: string): string;
  /** A reply's notice while the workspace is searched for its question's codebase context. */
  searchingWorkspace(): string;
}

/** What the model is sent of the workspace with a question (see codebaseTurn.ts); no passages when nothing matched. */
export interface FoundContext extends FoundPassages {
  /** Said on the question: the index was still being built, passages were left out for the budget, nothing matched. */
  notice?: string;
}

/** The passages of the workspace closest to a question, within what the model leaves room for. */
export interface CodebaseSource {
  /**
   * `question`: the question as the user wrote it. `conversationTokens`: what the conversation
   * sent with the question takes. Rejects with `CodebaseUnavailable` when the workspace cannot be
   * searched yet (no consent, no folder…).
   */
  find(question: string, room: { model: string; conversationTokens: number; answerTokens?: number }, signal: AbortSignal): Promise<FoundContext>;
}

/** The project's rules that apply (AGENTS.md and the like, the host's workspace/projectRules.ts): their text for the model, and the files by label. */
export interface RulesSource {
  find(): Promise<{ text: string; files: string[] }>;
}

export interface ChatDependencies {
  clients: ChatClients;
  pictures: ChatFiles;
  readSettings(): ChatSettings;
  /** What the user reads of a failure; logs its technical detail (the host's errors.ts `describeError`). */
  describeError(error: unknown): ReplyError;
  texts: ChatTexts;
  /** Codebase context; without it a question asked with codebase context is answered as it is. */
  codebase?: CodebaseSource;
  /** The project's rules; without it a reply is asked with none. */
  rules?: RulesSource;
  log: Logger;
  clock: Clock;
}
