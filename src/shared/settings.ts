/**
 * The extension's settings, each named once with the type package.json gives it; package.json
 * holds their defaults and limits (test/unit/project/manifest.test.ts checks that the two agree). Shared:
 * the host reads the settings, and the core's messages name a setting at fault. Imports nothing.
 */
export interface SettingTypes {
  authUrl: string;
  baseUrl: string;
  scope: string;
  model: string;
  embeddingsModel: string;
  temperature: number | null;
  maxTokens: number | null;
  reasoningEffort: '' | 'low' | 'medium' | 'high';
  systemPrompt: string;
  modelTokenLimits: Record<string, { maxInputTokens?: number; maxOutputTokens?: number }>;
  commitMessageLanguage: 'auto' | 'en' | 'ru';
  commitMessageInstructions: string;
  caCertificates: string[];
  requestTimeout: number;
  /** The account's streams; 0: by the key's scope. */
  streams: number;
  'completions.enable': Record<string, boolean>;
  'completions.model': string;
  'completions.debounceMs': number;
  'completions.contextTokens': number;
  'completions.provider': 'gigachat' | 'ollama' | 'llama.cpp' | 'openai';
  'completions.serverUrl': string;
  'completions.serverModel': string;
  'completions.fimTemplate': string;
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

/** The id a user sees and searches the settings for: `gigachat.authUrl`. */
export function settingId(key: SettingKey): string {
  return `${SETTINGS_SECTION}.${key}`;
}
