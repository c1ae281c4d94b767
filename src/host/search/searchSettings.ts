import type { SettingsReader } from '../settings/settingsReader';

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

export function readSearchSettings(settings: Pick<SettingsReader, 'get'>): SearchSettings {
  return {
    embeddingsModel: settings.get('embeddingsModel'),
    maxFileBytes: settings.get('search.maxFileSizeKB') * 1024,
    maxFiles: settings.get('search.maxFiles'),
    batchSize: settings.get('search.batchSize'),
    batchChars: settings.get('search.batchCharacters'),
    maxRequestsInFlight: settings.get('search.maxRequestsInFlight'),
    chunkChars: settings.get('search.chunkCharacters'),
  };
}
