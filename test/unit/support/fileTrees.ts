import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * Throwaway directories filled with files (`'src/a.ts': 'content'`, directories made as needed),
 * removed after the suite. Use inside a `describe`; returns the function that makes one and gives
 * its path.
 */
export function useFileTrees(): (files: Record<string, string | Uint8Array>) => string {
  const roots: string[] = [];
  after(() => {
    for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
  });
  return (files) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gigachat-files-'));
    roots.push(root);
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), content);
    }
    return root;
  };
}
