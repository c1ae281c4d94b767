import { constants, promises as fs } from 'node:fs';

/**
 * A file's bytes, read only when it is a regular file of at most `maxBytes`: judged on the open
 * handle before any byte is read. A link is not followed (`O_NOFOLLOW`), a FIFO does not block the
 * open (`O_NONBLOCK`), and a device, a FIFO or a directory is never read: a link to `/dev/zero`
 * or a named pipe among a change's files must neither exhaust memory nor hang the extension host.
 */
export type RegularFileRead = { kind: 'read'; bytes: Uint8Array } | { kind: 'notRegular' } | { kind: 'tooLarge' } | { kind: 'unreadable' };

export async function readRegularFile(filePath: string, maxBytes: number): Promise<RegularFileRead> {
  const handle = await fs.open(filePath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0)).catch(() => undefined);
  if (!handle) return { kind: 'unreadable' };
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: 'notRegular' };
    if (stat.size > maxBytes) return { kind: 'tooLarge' };
    // Read at most one byte past the bound: a file that grew since its stat is still cut off.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > maxBytes) return { kind: 'tooLarge' };
    }
    return { kind: 'read', bytes: buffer.subarray(0, length) };
  } catch {
    return { kind: 'unreadable' };
  } finally {
    await handle.close();
  }
}
