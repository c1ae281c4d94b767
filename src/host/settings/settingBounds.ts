/**
 * Numbers a settings.json may hold anything in: package.json's `minimum`/`maximum` only make the
 * Settings editor warn, and a repository's `.vscode/settings.json` is not checked at all. The code
 * keeps them within the same bounds (test/unit/host/settings/settingBounds.test.ts checks that the two agree).
 * Imports nothing from VS Code, so the unit tests load it.
 */
import type { SettingKey } from '../../shared/settings';

export const SETTING_BOUNDS = {
  requestTimeout: { min: 1, max: 600 },
  // A wait of hours would turn suggestions off without a word.
  'completions.debounceMs': { min: 0, max: 2000 },
  // A budget of millions of tokens would send whole files with every keystroke.
  'completions.contextTokens': { min: 128, max: 16384 },
} as const satisfies Partial<Record<SettingKey, { min: number; max: number }>>;

export type BoundedSetting = keyof typeof SETTING_BOUNDS;

/** `value` within the setting's bounds, as a whole number; `fallback` (package.json's default) when it is not a number. */
export function withinBounds(key: BoundedSetting, value: unknown, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  const { min, max } = SETTING_BOUNDS[key];
  return Math.min(max, Math.max(min, Math.round(value)));
}
