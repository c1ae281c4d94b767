/** Deterministic pseudo-random numbers (mulberry32), so a failing case can be replayed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct sorted cut positions strictly inside 0..length. */
export function randomSplits(length: number, count: number, random: () => number): number[] {
  const cuts = new Set<number>();
  while (cuts.size < Math.min(count, length - 1)) cuts.add(1 + Math.floor(random() * (length - 1)));
  return [...cuts].sort((a, b) => a - b);
}
