/**
 * Plain-JavaScript twins of the SIMD kernels in vectorSimd.ts, for a runtime without WebAssembly
 * SIMD: the same signatures (addresses in bytes within `buffer`), the same results per vector up
 * to rounding (the sums are taken in another order). Each vector's sum has one order here too
 * (even and odd components apart, in double precision), whether it is scanned alone or with
 * others, so its score does not depend on where it is stored.
 */
import type { SimdKernels } from './vectorSimd';

let roundedValues: Float32Array | undefined;

/** The float each 16-bit rounded value stands for (the value as the high half of a float32); 256 KB, made on first use. */
function roundedToFloat(): Float32Array {
  if (!roundedValues) {
    roundedValues = new Float32Array(65536);
    const bits = new Uint32Array(roundedValues.buffer);
    for (let value = 0; value < 65536; value++) bits[value] = value << 16;
  }
  return roundedValues;
}

export function plainKernels(buffer: ArrayBuffer): SimdKernels {
  const floats = new Float32Array(buffer);
  const unsignedShorts = new Uint16Array(buffer);
  const bytes = new Int8Array(buffer);
  const shorts = new Int16Array(buffer);
  const ints = new Int32Array(buffer);
  return {
    dotsF32(query, base, count, stride, out) {
      const q = query >> 2;
      const n = stride >> 2; // even: strides are whole SIMD steps
      let j = 0;
      let v = base >> 2;
      let o = out >> 2;
      // Four vectors at a time share each load of the query; each has an even and an odd sum.
      for (; j + 4 <= count; j += 4, v += 4 * n, o += 4) {
        const v1 = v + n;
        const v2 = v1 + n;
        const v3 = v2 + n;
        let a0 = 0;
        let a1 = 0;
        let b0 = 0;
        let b1 = 0;
        let c0 = 0;
        let c1 = 0;
        let d0 = 0;
        let d1 = 0;
        for (let i = 0; i < n; i += 2) {
          const x = floats[q + i];
          const y = floats[q + i + 1];
          a0 += floats[v + i] * x;
          a1 += floats[v + i + 1] * y;
          b0 += floats[v1 + i] * x;
          b1 += floats[v1 + i + 1] * y;
          c0 += floats[v2 + i] * x;
          c1 += floats[v2 + i + 1] * y;
          d0 += floats[v3 + i] * x;
          d1 += floats[v3 + i + 1] * y;
        }
        floats[o] = a0 + a1;
        floats[o + 1] = b0 + b1;
        floats[o + 2] = c0 + c1;
        floats[o + 3] = d0 + d1;
      }
      for (; j < count; j++, v += n, o++) {
        let a0 = 0;
        let a1 = 0;
        for (let i = 0; i < n; i += 2) {
          a0 += floats[v + i] * floats[q + i];
          a1 += floats[v + i + 1] * floats[q + i + 1];
        }
        floats[o] = a0 + a1;
      }
    },
    dotsRounded(query, base, count, stride, out) {
      const toFloat = roundedToFloat();
      const q = query >> 2;
      const n = stride >> 1; // even: strides are whole SIMD steps
      for (let j = 0, v = base >> 1, o = out >> 2; j < count; j++, v += n, o++) {
        let a0 = 0;
        let a1 = 0;
        for (let i = 0; i < n; i += 2) {
          a0 += toFloat[unsignedShorts[v + i]] * floats[q + i];
          a1 += toFloat[unsignedShorts[v + i + 1]] * floats[q + i + 1];
        }
        floats[o] = a0 + a1;
      }
    },
    dotsInt8(query, base, count, stride, out) {
      const q = query >> 1;
      for (let j = 0, v = base, o = out >> 2; j < count; j++, v += stride, o++) {
        // Integers: exact in any order, so the same sums as the SIMD kernel's.
        let sum = 0;
        for (let i = 0; i < stride; i++) sum += bytes[v + i] * shorts[q + i];
        ints[o] = sum;
      }
    },
  };
}
