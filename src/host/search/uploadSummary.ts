import { chunkText, estimateTokens, readSelectedFiles, type EmbeddingCache, type FileSelection } from '../../core';
import type { SearchSettings } from './searchSettings';

/** What a first indexing run would send to the service: shown to the user before anything is sent. */
export interface UploadSummary {
  /** Files with text to index. */
  files: number;
  /** Chunks those files make. */
  chunks: number;
  /** Of them, chunks with no vector in the cache yet: the ones actually sent. */
  newChunks: number;
  /** Characters in the new chunks. */
  characters: number;
  /** About how many tokens the new chunks cost (estimated from their characters: the service is not asked). */
  tokens: number;
  /** The embeddings model that would embed them. */
  model: string;
  /** The files' index keys (their URIs), for "Show files". */
  paths: string[];
}

/**
 * Reads and chunks the selected files locally (nothing is sent) to say what indexing would upload.
 * Stops reading once `signal` aborts (the caller then asks nothing).
 */
export async function summarizeUpload(selection: FileSelection, cache: EmbeddingCache, settings: SearchSettings, signal: AbortSignal): Promise<UploadSummary> {
  const summary: UploadSummary = { files: 0, chunks: 0, newChunks: 0, characters: 0, tokens: 0, model: cache.model, paths: [] };
  for await (const read of readSelectedFiles(selection.files, settings.maxFileBytes, () => undefined)) {
    if (signal.aborted) break;
    summary.files++;
    summary.paths.push(read.path);
    for (const chunk of chunkText(read.text, { maxChars: settings.chunkChars })) {
      summary.chunks++;
      if (cache.has(cache.keyFor(chunk.text))) continue;
      summary.newChunks++;
      summary.characters += chunk.text.length;
      summary.tokens += estimateTokens(chunk.text);
    }
  }
  return summary;
}
