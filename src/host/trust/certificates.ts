import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { messageOf, certificatesFromFile } from '../../core';
import type { Log } from '../log';

/**
 * Reads the extra roots named in `gigachat.caCertificates` (PEM or DER files, several
 * certificates per file allowed). A file that cannot be read or holds no certificate is reported
 * in the log and skipped: one bad path must not cut the user off the service.
 */
export async function loadExtraRoots(paths: readonly string[], log: Log): Promise<{ roots: string[]; problems: string[] }> {
  const roots: string[] = [];
  const problems: string[] = [];
  for (const configured of paths) {
    const file = expandHome(configured.trim());
    if (!file) continue;
    try {
      const found = certificatesFromFile(await fs.readFile(file));
      if (found.length === 0) problems.push(`${file}: no certificate found (expected PEM or DER)`);
      roots.push(...found);
    } catch (error) {
      problems.push(`${file}: ${messageOf(error)}`);
    }
  }
  for (const problem of problems) log.warn(`gigachat.caCertificates: ${problem}`);
  return { roots, problems };
}

function expandHome(file: string): string {
  return file.startsWith('~') ? path.join(os.homedir(), file.slice(1)) : file;
}
