// Node has WebAssembly at run time, but its types come only with the browser's DOM library, which the
// core is built without (src/core/tsconfig.json): this declares the part the vector kernels use. The
// project-wide tsconfig.json, which has the DOM, leaves this file out.
declare namespace WebAssembly {
  interface MemoryDescriptor {
    initial: number;
    maximum?: number;
  }
  class Memory {
    constructor(descriptor: MemoryDescriptor);
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Module {
    constructor(bytes: BufferSource);
  }
  type ExportValue = ((...args: never[]) => unknown) | Memory;
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, ExportValue>>);
    readonly exports: Record<string, ExportValue>;
  }
  function validate(bytes: BufferSource): boolean;
}
