/**
 * The approximate first pass of {@link VectorIndex.searchQuantized}: ranks every vector by the dot
 * product of its int8 codes with the quantized query (WebAssembly SIMD, a quarter of the memory the
 * float scan reads), so only the best candidates need an exact score.
 */
import { TopK } from './vectorTopK';
import type { VectorPages } from './vectorPages';
import { type Int8Scanner, queryCodeLimit } from './vectorInt8';

/**
 * The `capacity` slots whose int8 codes score best against the unit vector `unit`.
 * The query is scaled so its largest component uses the whole code range the scanner allows.
 */
export function int8Candidates(store: VectorPages, scanner: Int8Scanner, unit: Float32Array, capacity: number): TopK {
  const d = store.dimensions;
  let max = 0;
  for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(unit[i]));
  const toCode = queryCodeLimit(store.codeStride) / max;
  for (let i = 0; i < d; i++) scanner.query[i] = Math.round(unit[i] * toCode);

  const size = store.size;
  const candidates = new TopK(capacity, store.ids);
  let threshold = -Infinity;
  for (let page = 0, slot = 0; slot < size; page++) {
    const count = Math.min(store.vectorsPerPage, size - slot);
    const codes = store.codePages[page];
    const scales = store.scalePages[page];
    for (let start = 0; start < count; start += scanner.chunkVectors) {
      const n = Math.min(scanner.chunkVectors, count - start);
      const dots = scanner.dots(codes, start, n);
      for (let j = 0; j < n; j++) {
        const approximate = dots[j] * scales[start + j];
        if (approximate >= threshold) threshold = candidates.offer(approximate, slot + start + j);
      }
    }
    slot += count;
  }
  return candidates;
}
