import type { Logger, ReasoningEffort, ServiceClient } from '../../core';
import type { ImageAttachment, TurnError } from '../../shared/protocol';
import type { Clock } from '../clock';
import type { FoundPassages } from './storedTurns';

/**
 * What the chat's behaviour (the controller and what it calls) takes from outside: VS Code, the
 * service, the disk of pictures. Types only, so the chat runs under plain Node with stand-ins
 * (test/unit/chatController.test.ts); services.ts gives it the real ones.
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

/** The pictures the model drew, and the pictures and documents the user attached, kept on disk (ImageStore). */
export interface PictureStore {
  has(fileId: string): Promise<boolean>;
  /** Keeps a file the user attached, under `fileId`: a picture (its type read from its bytes), or a document with its `extension`. */
  keep(fileId: string, bytes: Uint8Array, extension?: string): Promise<void>;
  /** A stored file's bytes; undefined when it is not stored. */
  read(fileId: string): Promise<Uint8Array | undefined>;
  /** Downloads each file not already stored. */
  download(client: Pick<ServiceClient, 'fileContent'>, fileIds: readonly string[], signal?: AbortSignal): Promise<void>;
  /** The stored pictures as the view gets them, skipping any that are missing. */
  attachments(fileIds: readonly string[]): Promise<ImageAttachment[]>;
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
   * `conversationTokens`: what the conversation sent with the question takes. Rejects with
   * `CodebaseUnavailable` when the workspace cannot be searched yet (no consent, no folder…).
   */
  find(question: string, room: { model: string; conversationTokens: number; answerTokens?: number }, signal: AbortSignal): Promise<FoundContext>;
}

/** The project's rules that apply (AGENTS.md and the like, see workspace/projectRules.ts): their text for the model, and the files by label. */
export interface RulesSource {
  find(): Promise<{ text: string; files: string[] }>;
}

export interface ChatDependencies {
  clients: ChatClients;
  pictures: PictureStore;
  readSettings(): ChatSettings;
  /** What the user reads of a failure; logs its technical detail (errors.ts `describeError`). */
  describeError(error: unknown): TurnError;
  texts: ChatTexts;
  /** Codebase context; without it a question asked with codebase context is answered as it is. */
  codebase?: CodebaseSource;
  /** The project's rules; without it a reply is asked with none. */
  rules?: RulesSource;
  log: Logger;
  clock: Clock;
}
