/**
 * The dot-product kernels of {@link VectorIndex}: the cosine of two unit vectors is their dot
 * product. Accumulation is in double precision and scores are clamped to [-1, 1]; both kernels sum
 * in the same order so a vector's score is the same whichever kernel computes it.
 */
import type { TopK } from './vectorTopK';

/** `x` limited to [-1, 1] (rounding can take the dot product of unit vectors just past them). */
function clamp(x: number): number {
  return x > 1 ? 1 : x < -1 ? -1 : x;
}

/**
 * Offers the first `count` vectors of `page` (slots `firstSlot`…) to `top`, scored against the
 * unit vector `q`. Four vectors at a time share each load of the query; every vector has two
 * accumulators (even and odd components), summed the same way as in {@link dotOne}, so a vector's
 * score does not depend on where it is stored.
 */
export function scanPage(page: Float32Array, count: number, d: number, q: Float32Array, firstSlot: number, top: TopK): void {
  const even = d - (d & 1);
  let threshold = top.threshold();
  let v = 0;
  for (; v + 4 <= count; v += 4) {
    const b0 = v * d;
    const b1 = b0 + d;
    const b2 = b1 + d;
    const b3 = b2 + d;
    let a0 = 0;
    let a1 = 0;
    let c0 = 0;
    let c1 = 0;
    let e0 = 0;
    let e1 = 0;
    let f0 = 0;
    let f1 = 0;
    for (let i = 0; i < even; i += 2) {
      const q0 = q[i];
      const q1 = q[i + 1];
      a0 += page[b0 + i] * q0;
      a1 += page[b0 + i + 1] * q1;
      c0 += page[b1 + i] * q0;
      c1 += page[b1 + i + 1] * q1;
      e0 += page[b2 + i] * q0;
      e1 += page[b2 + i + 1] * q1;
      f0 += page[b3 + i] * q0;
      f1 += page[b3 + i + 1] * q1;
    }
    if (even !== d) {
      const q0 = q[even];
      a0 += page[b0 + even] * q0;
      c0 += page[b1 + even] * q0;
      e0 += page[b2 + even] * q0;
      f0 += page[b3 + even] * q0;
    }
    const s0 = clamp(a0 + a1);
    const s1 = clamp(c0 + c1);
    const s2 = clamp(e0 + e1);
    const s3 = clamp(f0 + f1);
    const slot = firstSlot + v;
    if (s0 >= threshold) threshold = top.offer(s0, slot);
    if (s1 >= threshold) threshold = top.offer(s1, slot + 1);
    if (s2 >= threshold) threshold = top.offer(s2, slot + 2);
    if (s3 >= threshold) threshold = top.offer(s3, slot + 3);
  }
  for (; v < count; v++) {
    const score = dotOne(page, v * d, q, d);
    if (score >= threshold) threshold = top.offer(score, firstSlot + v);
  }
}

/** The score of the vector at `page[at …]` against `q`, summed exactly as {@link scanPage} does. */
export function dotOne(page: Float32Array, at: number, q: Float32Array, d: number): number {
  const even = d - (d & 1);
  let a0 = 0;
  let a1 = 0;
  for (let i = 0; i < even; i += 2) {
    a0 += page[at + i] * q[i];
    a1 += page[at + i + 1] * q[i + 1];
  }
  if (even !== d) a0 += page[at + even] * q[even];
  return clamp(a0 + a1);
}
