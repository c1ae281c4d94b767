/** Whether `value` is a plain object whose keys can be read (not null, not an array): JSON from elsewhere, checked before use. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
