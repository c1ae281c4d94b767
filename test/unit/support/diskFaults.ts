import * as fs from 'node:fs';

/**
 * Faults of the disk, injected under the cache's own file code: `fs.promises.open` is wrapped to
 * learn which file each handle writes, and `FileHandle.prototype.write` to fail or stall a write
 * the predicate picks. What a full disk does (ENOSPC, from the write that no longer fits) or a
 * process killed mid-write (the write never returns) is then seen by the real code, on real files.
 */
export interface DiskFaults {
  /** Restores fs. */
  restore(): void;
}

type WriteFault = (file: string) => 'fail' | 'stall' | undefined;

export async function injectDiskFaults(fault: WriteFault, onStall: (file: string) => void = () => undefined): Promise<DiskFaults> {
  const promises = fs.promises;
  const probe = await promises.open(__filename, 'r');
  const prototype = Object.getPrototypeOf(probe) as { write: (...args: unknown[]) => Promise<unknown> };
  await probe.close();
  const pathOf = new WeakMap<object, string>();
  const open = promises.open;
  const write = prototype.write;
  promises.open = async function (this: unknown, file: fs.PathLike, ...rest: unknown[]) {
    const handle = await (open as (...args: unknown[]) => Promise<fs.promises.FileHandle>).call(promises, file, ...rest);
    pathOf.set(handle, String(file));
    return handle;
  };
  prototype.write = function (this: object, ...args: unknown[]) {
    const file = pathOf.get(this) ?? '';
    const action = fault(file);
    if (action === 'fail')
      return Promise.reject(Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC', errno: -28, syscall: 'write' }));
    if (action === 'stall') {
      onStall(file);
      return new Promise(() => undefined);
    }
    return write.apply(this, args);
  };
  return {
    restore: () => {
      promises.open = open;
      prototype.write = write;
    },
  };
}
