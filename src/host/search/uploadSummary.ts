import { embeddingText, estimateTokens, readSelectedFiles, type FileSelection, type WorkspaceIndexer } from '../../core';
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
export async function summarizeUpload(
  selection: FileSelection,
  indexer: WorkspaceIndexer,
  settings: SearchSettings,
  signal: AbortSignal,
): Promise<UploadSummary> {
  const { cache } = indexer;
  const summary: UploadSummary = { files: 0, chunks: 0, newChunks: 0, characters: 0, tokens: 0, model: cache.model, paths: [] };
  for await (const read of readSelectedFiles(selection.files, settings.maxFileBytes, () => undefined)) {
    if (signal.aborted) break;
    summary.files++;
    summary.paths.push(read.path);
    for (const chunk of await indexer.chunksOf(read)) {
      const text = embeddingText(chunk);
      summary.chunks++;
      if (cache.has(cache.keyFor(text))) continue;
      summary.newChunks++;
      summary.characters += text.length;
      summary.tokens += estimateTokens(text);
    }
  }
  return summary;
}
