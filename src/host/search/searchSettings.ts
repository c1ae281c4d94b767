import * as vscode from 'vscode';
import { readSetting } from '../settings/config';
import { settingsFor } from '../settings/settingKeys';

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
  return {
    embeddingsModel: readSetting('embeddingsModel'),
    maxFileBytes: readSetting('search.maxFileSizeKB') * 1024,
    maxFiles: readSetting('search.maxFiles'),
    batchSize: readSetting('search.batchSize'),
    batchChars: readSetting('search.batchCharacters'),
    maxRequestsInFlight: readSetting('search.maxRequestsInFlight'),
    chunkChars: readSetting('search.chunkCharacters'),
  };
}

/** Settings after whose change the set of files must be worked out again. */
export function affectsFileSet(event: vscode.ConfigurationChangeEvent): boolean {
  return ['files.exclude', 'search.exclude', ...settingsFor('searchFiles')].some((section) => event.affectsConfiguration(section));
}

/** Settings after whose change the indexer is made anew (another model means another cache), which scans the files again too. */
export function affectsIndexer(event: vscode.ConfigurationChangeEvent): boolean {
  return settingsFor('searchIndexer').some((section) => event.affectsConfiguration(section));
}
