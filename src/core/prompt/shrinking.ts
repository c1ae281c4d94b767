import { JOIN_TOKENS, type Measure, type Shrink } from './fitPrompt';

/**
 * The ways a prompt part shrinks (fitPrompt.ts): its text cut at a line's end, or a list whose
 * items are kept whole or left out. Each gives text within the room or nothing, and says what it
 * left out.
 */

/**
 * Keeps the text's first lines that fit, then `marker` on a line of its own (counted in the room),
 * so the model knows the text goes on; '' for no marker (a list, newest first, that just ends
 * sooner). Undefined when not even the first line fits.
 */
export function trimAtLineEnds(marker: string): Shrink {
  return (text, room, measure) => {
    const lines = text.split('\n');
    const markerTokens = marker ? measure(marker) + JOIN_TOKENS : 0;
    let kept = 0;
    // A binary search: a long text is measured a few dozen times, not once per line.
    let low = 1;
    let high = lines.length - 1;
    while (low <= high) {
      const middle = Math.floor((low + high) / 2);
      if (measure(lines.slice(0, middle).join('\n')) + markerTokens <= room) {
        kept = middle;
        low = middle + 1;
      } else high = middle - 1;
    }
    if (kept === 0) return undefined;
    return { text: [...lines.slice(0, kept), ...(marker ? [marker] : [])].join('\n'), leftOut: `${lines.length - kept} of ${lines.length} lines` };
  };
}

export interface FittedItems<T> {
  /** The items that fit (or their cut), in the order given. */
  kept: T[];
  /** The items kept, their text joined by `separator`. */
  text: string;
  /** How many of the items were left out whole. */
  leftOut: number;
}

export interface ItemOptions<T> {
  /** The item's text as it goes. */
  textOf: (item: T) => string;
  separator?: string;
  measure: Measure;
  /**
   * The item that does not fit whole, made smaller for the room that is left (its text within
   * `room`); undefined when it is not worth sending so. Once an item is cut, the room is spent.
   */
  cut?: (item: T, room: number) => T | undefined;
}

/**
 * The items within `room`, in their order (the most important first): each whole while it fits,
 * one that does not passed over for the smaller ones after it, or cut to the room left when `cut`
 * allows. Each item costs its text and one join.
 */
export function fitItems<T>(items: readonly T[], room: number, options: ItemOptions<T>): FittedItems<T> {
  const { textOf, measure, cut, separator = '\n\n' } = options;
  const kept: T[] = [];
  let left = room;
  for (const item of items) {
    const cost = measure(textOf(item)) + JOIN_TOKENS;
    if (cost <= left) {
      kept.push(item);
      left -= cost;
      continue;
    }
    const smaller = cut && left > JOIN_TOKENS ? cut(item, left - JOIN_TOKENS) : undefined;
    if (smaller !== undefined && measure(textOf(smaller)) + JOIN_TOKENS <= left) {
      kept.push(smaller);
      left = 0;
    }
  }
  return { kept, text: kept.map(textOf).join(separator), leftOut: items.length - kept.length };
}

/** A list part's shrink: whole items while they fit (fitItems), in their order; undefined when none does. */
export function dropWholeItems(items: readonly string[], separator = '\n\n'): Shrink {
  return (_text, room, measure) => {
    const fitted = fitItems(items, room, { textOf: (item) => item, separator, measure });
    if (fitted.kept.length === 0) return undefined;
    return { text: fitted.text, leftOut: fitted.leftOut > 0 ? `${fitted.leftOut} of ${items.length} items` : undefined };
  };
}

/** A list as one part: its items joined, and dropped whole from the least important (the last) when the room is short. */
export function listPart(items: readonly string[], separator = '\n\n'): { text: string; shrink: Shrink } {
  return { text: items.join(separator), shrink: dropWholeItems(items, separator) };
}
