/**
 * The extension's settings, each named once with the type package.json gives it; package.json
 * holds their defaults and limits (test/unit/manifest.test.ts checks that the two agree). This
 * module imports nothing, so the unit tests load it.
 */
export interface SettingTypes {
  authUrl: string;
  baseUrl: string;
  scope: string;
  model: string;
  embeddingsModel: string;
  temperature: number | null;
  maxTokens: number | null;
  systemPrompt: string;
  modelTokenLimits: Record<string, { maxInputTokens?: number; maxOutputTokens?: number }>;
  caCertificates: string[];
  requestTimeout: number;
  'search.maxFileSizeKB': number;
  'search.maxFiles': number;
  'search.chunkCharacters': number;
  'search.batchSize': number;
  'search.batchCharacters': number;
  'search.maxRequestsInFlight': number;
}

export type SettingKey = keyof SettingTypes;

/** The section every key is under. */
export const SETTINGS_SECTION = 'gigachat';

/** What a change to each setting calls for; TypeScript makes a new setting say so. */
const SETTING_EFFECTS: Record<SettingKey, 'connection' | 'searchIndexer' | 'searchFiles' | 'nextRequest'> = {
  authUrl: 'connection',
  baseUrl: 'connection',
  scope: 'connection',
  caCertificates: 'connection',
  requestTimeout: 'connection',
  model: 'nextRequest',
  temperature: 'nextRequest',
  maxTokens: 'nextRequest',
  systemPrompt: 'nextRequest',
  modelTokenLimits: 'nextRequest',
  // The indexer is made anew (another model means another cache), and the files scanned again.
  embeddingsModel: 'searchIndexer',
  'search.batchSize': 'searchIndexer',
  'search.batchCharacters': 'searchIndexer',
  'search.maxRequestsInFlight': 'searchIndexer',
  'search.chunkCharacters': 'searchIndexer',
  // The set of files is worked out again.
  'search.maxFileSizeKB': 'searchFiles',
  'search.maxFiles': 'searchFiles',
};

export const SETTING_KEYS = Object.keys(SETTING_EFFECTS) as SettingKey[];

/** The full ids (`gigachat.authUrl`…) of the settings whose change calls for `effect`. */
export function settingsFor(effect: (typeof SETTING_EFFECTS)[SettingKey]): string[] {
  return SETTING_KEYS.filter((key) => SETTING_EFFECTS[key] === effect).map(settingId);
}

export function settingId(key: SettingKey): string {
  return `${SETTINGS_SECTION}.${key}`;
}
