import * as vscode from 'vscode';
import { readSettings } from '../config';

/** The `gigachat.search.*` settings (and the embeddings model), read fresh for each run. */
export interface SearchSettings {
  embeddingsModel: string;
  maxFileBytes: number;
  maxFiles: number;
  batchSize: number;
  batchChars: number;
  maxRequestsInFlight: number;
  chunkChars: number;
}

export function readSearchSettings(): SearchSettings {
  const config = vscode.workspace.getConfiguration('gigachat');
  return {
    embeddingsModel: readSettings().embeddingsModel,
    maxFileBytes: config.get('search.maxFileSizeKB', 1024) * 1024,
    maxFiles: config.get('search.maxFiles', 5000),
    batchSize: config.get('search.batchSize', 32),
    batchChars: config.get('search.batchCharacters', 48_000),
    maxRequestsInFlight: config.get('search.maxRequestsInFlight', 2),
    chunkChars: config.get('search.chunkCharacters', 1500),
  };
}

/** Settings after whose change the set of files (or their chunks) must be worked out again. */
export function affectsFileSet(event: vscode.ConfigurationChangeEvent): boolean {
  return ['files.exclude', 'search.exclude', 'gigachat.search.maxFileSizeKB', 'gigachat.search.maxFiles', 'gigachat.search.chunkCharacters'].some((section) =>
    event.affectsConfiguration(section),
  );
}

/** Settings after whose change the indexer is made anew (another model means another cache). */
export function affectsIndexer(event: vscode.ConfigurationChangeEvent): boolean {
  return ['gigachat.embeddingsModel', 'gigachat.search.batchSize', 'gigachat.search.batchCharacters', 'gigachat.search.maxRequestsInFlight', 'gigachat.search.chunkCharacters'].some(
    (section) => event.affectsConfiguration(section),
  );
}
