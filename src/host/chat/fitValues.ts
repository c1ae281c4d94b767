// The values of a message to the chat view, each fitted to the view's limits: ids, labels, texts, counts (see fitMessage.ts).

import { LIMITS } from '../../shared/protocol';

/** The part of a turn's text the view shows: all of it up to `LIMITS.text` characters. */
export function shownText(text: string): string {
  return cut(text, LIMITS.text);
}

/** An id as the view gets it (longer ones are cut): compare what the view sends back with this. */
export function viewId(id: string): string {
  return cut(id, LIMITS.id) || '-';
}

export function fitId(id: string, what: string, notes: string[]): string {
  const value = typeof id === 'string' ? id : '';
  if (value.length === 0 || value.length > LIMITS.id)
    notes.push(`Chat view: a ${what} of ${value.length} characters is shown as ${value ? 'its beginning' : '-'}`);
  return viewId(value);
}

/** `text` within `max` characters: a label that is cut ends in '…'. */
export function fitText(text: string, max: number, what: string, notes: string[]): string {
  if (text.length <= max) return text;
  notes.push(`Chat view: a ${what} of ${text.length} characters is cut to ${max}`);
  return `${cut(text, max - 1)}…`;
}

/** Text of the user's or the model's, within `max` characters: cut as it is, without a mark. */
export function fitLong(text: string, max: number, what: string, notes: string[]): string {
  if (text.length > max) notes.push(`Chat view: a ${what} of ${text.length} characters is cut to ${max}`);
  return cut(text, max);
}

/** At most `max` characters, never between the two halves of a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

export function listOf<T>(value: readonly T[] | undefined): T[] {
  return Array.isArray(value) ? [...(value as readonly T[])] : [];
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
