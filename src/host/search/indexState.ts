// What the workspace index shows of itself (status bar) and takes from the search commands (consent, cancellation).
import type { IndexProgress } from '../../core';
import type { UploadSummary } from './uploadSummary';

/** What the status bar shows. */
export type IndexState =
  | { phase: 'idle' }
  | { phase: 'indexing'; progress: IndexProgress; totalFiles: number }
  | { phase: 'ready'; files: number; chunks: number }
  /** A run was cancelled, failed or cut short by the window closing: what it finished is searchable, the rest is indexed by the next search. */
  | { phase: 'incomplete'; files: number; totalFiles: number };

/** The user's agreement to send the workspace's files (see IndexingConsent). */
export interface UploadConsent {
  /** Whether the user agreed to send the files of every folder of the workspace. */
  readonly granted: boolean;
  /** Asks, with what would be sent; resolves whether to go on (true without asking when there is nothing to send). */
  ask(summary: UploadSummary): Promise<boolean>;
}

export interface BuildOptions {
  /** Asked before anything is sent, until the user has agreed. */
  consent: UploadConsent;
  /** Stops the scan, for every caller waiting on it (each shows its own Cancel). */
  signal?: AbortSignal;
}
