/**
 * The first `length` float32 values of `buffer`, without copying when the buffer is 4-byte aligned
 * (a Float32Array cannot start at an unaligned byteOffset); otherwise one aligned copy.
 */
export function float32View(buffer: Buffer, length = Math.floor(buffer.byteLength / 4)): { rows: Float32Array; zeroCopy: boolean } {
  if (length * 4 > buffer.byteLength) throw new RangeError(`${buffer.byteLength} bytes hold fewer than ${length} float32 values`);
  if (buffer.byteOffset % 4 === 0) return { rows: new Float32Array(buffer.buffer, buffer.byteOffset, length), zeroCopy: true };
  const rows = new Float32Array(length);
  new Uint8Array(rows.buffer).set(buffer.subarray(0, length * 4));
  return { rows, zeroCopy: false };
}
