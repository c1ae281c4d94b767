/**
 * A window that saves the embedding cache and is killed in the middle: loads the cache in the
 * directory given, replaces two thirds of its vectors (so the save appends them, then compacts),
 * saves, and stalls its first write to the file `stallOn` names ('append': the vectors file in use;
 * 'compaction': a new one), telling the parent, which kills it there. Its orders come as the
 * first message from the parent.
 */
import * as path from 'node:path';
import { EmbeddingCache } from '../../../src/core/search/cache/embeddingCache';
import { injectDiskFaults } from './diskFaults';

interface Orders {
  directory: string;
  model: string;
  stallOn: 'append' | 'compaction';
  /** The vectors to set: key and values. */
  vectors: [string, number[]][];
}

async function main(orders: Orders): Promise<void> {
  const cache = await EmbeddingCache.load(orders.directory, orders.model);
  if (cache.loadInfo.state !== 'loaded') throw new Error(`the cache did not load: ${cache.loadInfo.reason}`);
  const inUse = cache.vectorsFile!;
  await injectDiskFaults(
    (file) => {
      if (!path.basename(file).startsWith('vectors')) return undefined;
      const stall = orders.stallOn === 'append' ? file === inUse : path.basename(file) !== path.basename(inUse);
      return stall ? 'stall' : undefined;
    },
    (file) => process.send!({ stalled: path.basename(file) }),
  );
  for (const [key, values] of orders.vectors) cache.set(key, Float32Array.from(values));
  await cache.save();
  process.send!({ saved: true });
}

process.once('message', (orders) => {
  main(orders as Orders).catch((error: unknown) => {
    process.send!({ failed: String(error) });
  });
});
