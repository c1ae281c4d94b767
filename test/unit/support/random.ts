import type { Random } from '../../emulator/random';

/** The emulator's seeded generator, so a failing case can be replayed. */
export { seededRandom } from '../../emulator/random';

/** `count` distinct sorted cut positions strictly inside 0..length. */
export function randomSplits(length: number, count: number, random: Random): number[] {
  const cuts = new Set<number>();
  while (cuts.size < Math.min(count, length - 1)) cuts.add(1 + Math.floor(random() * (length - 1)));
  return [...cuts].sort((a, b) => a - b);
}
