/**
 * Just enough of WebAssembly's binary format to write the vector index's small SIMD kernels by
 * hand, so the project needs no WebAssembly toolchain. A module built here imports one memory
 * (`env.memory`) and exports functions that take only i32 parameters and return nothing.
 */

/** Value types. */
export const I32 = 0x7f;
export const V128 = 0x7b;

/** Unsigned LEB128, as the format writes sizes, indices and SIMD opcodes. */
function uleb(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

/** Signed LEB128, as the format writes integer constants. */
function sleb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

// ---- instructions used by the kernels ---------------------------------------------------------

export const localGet = (local: number) => [0x20, local];
export const localSet = (local: number) => [0x21, local];
export const localTee = (local: number) => [0x22, local];
export const i32Const = (value: number) => [0x41, ...sleb(value)];
export const i32Add = [0x6a];
export const i32Sub = [0x6b];
export const i32Eqz = [0x45];
export const i32GeU = [0x4f];
export const f32Add = [0x92];
/** f32.store with 4-byte alignment. */
export const f32Store = [0x38, 2, 0];
/** i32.store with 4-byte alignment. */
export const i32Store = [0x36, 2, 0];
export const simd = (op: number, ...immediates: number[]) => [0xfd, ...uleb(op), ...immediates];
/** v128.load with 16-byte alignment at a constant offset from the address on the stack. */
export const v128Load = (offset: number) => simd(0x00, 4, ...uleb(offset));
export const v128Zero = simd(0x0c, ...new Array<number>(16).fill(0));

/**
 * `while (true) { if (condition) break; …body; }` — `condition` leaves an i32 on the stack;
 * `body` may not branch out itself.
 */
export function loopUntil(condition: number[], body: number[]): number[] {
  return [0x02, 0x40, 0x03, 0x40, ...condition, 0x0d, 1, ...body, 0x0c, 0, 0x0b, 0x0b];
}

/** One exported function: its name, its i32 parameters, its extra locals by type, its code. */
export interface KernelFunction {
  name: string;
  parameters: number;
  locals: { count: number; type: number }[];
  body: number[];
}

function name(text: string): number[] {
  return [...uleb(text.length), ...Array.from(text, (c) => c.charCodeAt(0))];
}

function section(id: number, bytes: number[]): number[] {
  return [id, ...uleb(bytes.length), ...bytes];
}

function vector(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/** The module's bytes: `env.memory` imported (at least one page), each function exported. */
export function moduleBytes(functions: KernelFunction[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [0x60, ...uleb(f.parameters), ...new Array<number>(f.parameters).fill(I32), 0]);
  const code = functions.map((f) => {
    const body = [...vector(f.locals.map(({ count, type }) => [...uleb(count), type])), ...f.body, 0x0b];
    return [...uleb(body.length), ...body];
  });
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, vector(types)),
    ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 1]])),
    ...section(3, vector(functions.map((_, i) => uleb(i)))),
    ...section(7, vector(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)]))),
    ...section(10, vector(code)),
  ]);
}
