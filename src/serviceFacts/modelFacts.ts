/**
 * What VS Code's model picker and prompt builders need to know of a GigaChat model that `/models`
 * does not say: how many tokens it takes in and gives out, whether it sees pictures, and a name
 * for people. The figures are the service's published ones per model family; a user whose account
 * differs overrides them (the `gigachat.modelTokenLimits` setting).
 */

export interface ModelLimits {
  maxInputTokens: number;
  maxOutputTokens: number;
}

/** Families from the most specific; the first whose pattern matches the id applies. */
const FAMILIES: readonly { pattern: RegExp; limits: ModelLimits }[] = [
  // GigaChat 3 (Ultra, on the current contract only): a 128K-token context.
  { pattern: /^GigaChat-3(?:-|$)/i, limits: { maxInputTokens: 131_072, maxOutputTokens: 8_192 } },
  // GigaChat 2 (Lite, Pro, Max and Reasoning): a 128K-token context.
  { pattern: /^GigaChat-2(?:-|$)/i, limits: { maxInputTokens: 131_072, maxOutputTokens: 8_192 } },
  // The first generation: 32K.
  { pattern: /^GigaChat/i, limits: { maxInputTokens: 32_768, maxOutputTokens: 4_096 } },
];

/** For an id no family knows: the smallest context, so a prompt built to fit is never too long. */
const UNKNOWN: ModelLimits = { maxInputTokens: 32_768, maxOutputTokens: 4_096 };

/** The models that accept pictures as attachments (the service refuses them elsewhere with a 4xx), the less costly first. */
export const PICTURE_MODELS = ['GigaChat-2-Pro', 'GigaChat-2-Max'] as const;

/** One of them, also with a version or variant after it (`GigaChat-2-Max:2.0`, `GigaChat-2-Pro-preview`). */
const SEES_PICTURES = new RegExp(`^(?:${PICTURE_MODELS.join('|')})(?:$|[-:])`, 'i');

export function modelLimits(id: string, overrides: Readonly<Record<string, Partial<ModelLimits>>> = {}): ModelLimits {
  const known = FAMILIES.find((family) => family.pattern.test(id))?.limits ?? UNKNOWN;
  const override = overrides[id] ?? {};
  return {
    maxInputTokens: positiveOr(override.maxInputTokens, known.maxInputTokens),
    maxOutputTokens: positiveOr(override.maxOutputTokens, known.maxOutputTokens),
  };
}

/** Models that reason before they answer and take an effort for it (`GigaChat-2-Reasoning`, GigaChat 3). */
export function modelReasons(id: string): boolean {
  return /^GigaChat-3(?:-|:|$)|Reasoning/i.test(id);
}

export function modelSeesPictures(id: string): boolean {
  return SEES_PICTURES.test(id);
}

/** The model to switch to for a question with pictures: the less costly one the account offers (or the first, when it offers neither). */
export function pictureModelAmong(offered: readonly string[]): string {
  return PICTURE_MODELS.find((model) => offered.includes(model)) ?? PICTURE_MODELS[0];
}

/** `GigaChat-2-Max` → `GigaChat 2 Max`: the id's dashes read as spaces. */
export function modelDisplayName(id: string): string {
  return id.replace(/-/g, ' ');
}

function positiveOr(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : fallback;
}
