import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';

/**
 * Writes a temp file beside `target` with `write` and renames it into place, so a reader (or the
 * next start after a crash) sees the old file or the new one, never half of one. The temp file
 * never stays behind.
 */
export async function replaceFile(target: string, write: (temp: string) => Promise<void>): Promise<void> {
  const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await write(temp);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/** `replaceFile` for contents already in memory. */
export function writeFileAtomically(target: string, data: string | Uint8Array): Promise<void> {
  return replaceFile(target, (temp) => fs.writeFile(temp, data));
}
