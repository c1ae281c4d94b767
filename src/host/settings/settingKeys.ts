/**
 * What a change to each of the extension's settings (src/shared/settings.ts) calls for. This
 * module imports nothing from VS Code, so the unit tests load it.
 */
import { settingId, type SettingKey } from '../../shared/settings';

/** What a change to a setting calls for. */
export type SettingEffect = 'connection' | 'searchIndexer' | 'searchFiles' | 'nextRequest';

/** What a change to each setting calls for; TypeScript makes a new setting say so. */
const SETTING_EFFECTS: Record<SettingKey, SettingEffect> = {
  authUrl: 'connection',
  baseUrl: 'connection',
  scope: 'connection',
  caCertificates: 'connection',
  requestTimeout: 'connection',
  // Read when the scheduler's budget is set (clientProvider.ts).
  streams: 'nextRequest',
  model: 'nextRequest',
  temperature: 'nextRequest',
  maxTokens: 'nextRequest',
  reasoningEffort: 'nextRequest',
  systemPrompt: 'nextRequest',
  modelTokenLimits: 'nextRequest',
  commitMessageLanguage: 'nextRequest',
  commitMessageInstructions: 'nextRequest',
  // Read at each completion.
  'completions.enable': 'nextRequest',
  'completions.model': 'nextRequest',
  'completions.debounceMs': 'nextRequest',
  'completions.contextTokens': 'nextRequest',
  // The server is connected anew (completion/completers.ts).
  'completions.provider': 'nextRequest',
  'completions.serverUrl': 'nextRequest',
  'completions.serverModel': 'nextRequest',
  'completions.fimTemplate': 'nextRequest',
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

/** VS Code's own settings the extension follows, and what a change to them calls for. */
const VS_CODE_SETTING_EFFECTS: Partial<Record<SettingEffect, string[]>> = {
  // The client goes through VS Code's proxy (settings/vscodeSettings.ts).
  connection: ['http.proxy', 'http.noProxy', 'http.proxyAuthorization'],
  // Search leaves out what VS Code's explorer and search leave out (search/workspaceFolderSource.ts).
  searchFiles: ['files.exclude', 'search.exclude'],
};

/** The full ids (`gigachat.authUrl`, `http.proxy`…) of the settings whose change calls for `effect`. */
export function settingsFor(effect: SettingEffect): string[] {
  return [...SETTING_KEYS.filter((key) => SETTING_EFFECTS[key] === effect).map(settingId), ...(VS_CODE_SETTING_EFFECTS[effect] ?? [])];
}
