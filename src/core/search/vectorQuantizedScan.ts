/**
 * The approximate first pass of {@link VectorIndex.searchQuantized}: ranks every vector by the dot
 * product of its int8 codes with the quantized query (half the memory the rounded scan
 * reads), so only the best candidates need an exact score.
 */
import { TopK } from './vectorTopK';
import type { VectorPages } from './vectorPages';
import { queryCodeLimit } from './vectorInt8';

/**
 * The `capacity` slots whose int8 codes score best against the unit vector `unit`.
 * The query is scaled so its largest component uses the whole code range the kernel allows.
 */
export function int8Candidates(store: VectorPages, unit: Float32Array, capacity: number): TopK {
  const d = store.dimensions;
  const size = store.size;
  const candidates = new TopK(capacity, store.ids);
  if (size === 0) return candidates;
  let max = 0;
  for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(unit[i]));
  const codes = new Int16Array(store.pages[0].codeStride);
  const toCode = queryCodeLimit(codes.length) / max;
  for (let i = 0; i < d; i++) codes[i] = Math.round(unit[i] * toCode);
  store.loadQueryCodes(codes);

  let threshold = -Infinity;
  for (let p = 0, slot = 0; slot < size; p++) {
    const page = store.pages[p];
    const count = Math.min(store.vectorsPerPage, size - slot);
    const dots = page.codeDots(count);
    const scales = page.scales;
    for (let j = 0; j < count; j++) {
      const approximate = dots[j] * scales[j];
      if (approximate >= threshold) threshold = candidates.offer(approximate, slot + j);
    }
    slot += count;
  }
  return candidates;
}
