/**
 * Places to complete, cut from real code: what a user would be typing at the cursor, and the code
 * that is truly missing there. Three kinds, chosen at random (seeded) among a file's lines:
 *   - `line`: the cursor inside a line, the rest of the line missing;
 *   - `bracket`: the cursor inside a call or list whose closing bracket the editor has auto-closed
 *     (`)` and what follows it are after the cursor), the arguments missing;
 *   - `block`: the cursor at the end of a line opening a block (`{`), its body missing, the
 *     closing `}` after the cursor: blocks of 1 to 8 lines without a blank line (a suggestion is one
 *     paragraph of code: the cleaning ends a block at a blank line, as peers do).
 * Only places the provider would ask at (completionSite.ts) are kept, in the mode it would ask in.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { completesBlock, worthCompleting } from '../../src/core';
import { seededRandom } from '../emulator/random';

export type CutKind = 'line' | 'bracket' | 'block';

export interface CutPoint {
  kind: CutKind;
  file: string;
  /** The file with the missing code taken out, and the cursor's offset in it. */
  text: string;
  offset: number;
  missing: string;
  multiline: boolean;
}

/** The code files under `root` (recursively), in a stable order. */
export function codeFiles(root: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) found.push(...codeFiles(full, extensions));
    else if (extensions.some((extension) => entry.name.endsWith(extension))) found.push(full);
  }
  return found;
}

/** `count` cut points from `files`, taken round the files and kinds in turn, with a seeded choice of line and column. */
export function cutPoints(files: readonly string[], count: number, seed: number): CutPoint[] {
  // Seeded: the same corpus on every run.
  const random = seededRandom(seed);
  const texts = files.map((file) => ({ file, lines: fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n') }));
  const kinds: CutKind[] = ['line', 'bracket', 'block'];
  const points: CutPoint[] = [];
  const taken = new Set<string>();
  for (let attempt = 0; points.length < count && attempt < count * 200; attempt++) {
    const { file, lines } = texts[Math.floor(random() * texts.length)];
    const kind = kinds[points.length % kinds.length];
    const line = Math.floor(random() * lines.length);
    const point = CUTTERS[kind](lines, line, random);
    if (!point || taken.has(`${file}:${line}`)) continue;
    const lineBefore = point.text.slice(point.text.lastIndexOf('\n', point.offset - 1) + 1, point.offset);
    const lineAfter = point.text.slice(point.offset).split('\n')[0];
    const site = { lineBefore, lineAfter, languageId: file.endsWith('.ts') ? 'typescript' : 'javascript' };
    if (!worthCompleting(site)) continue;
    taken.add(`${file}:${line}`);
    points.push({ kind, file, ...point, multiline: completesBlock(site) });
  }
  return points;
}

type Cut = Omit<CutPoint, 'kind' | 'file' | 'multiline'>;

const CUTTERS: Record<CutKind, (lines: string[], at: number, random: () => number) => Cut | undefined> = {
  line(lines, at, random) {
    const line = lines[at];
    const code = line.trim();
    if (code.length < 12 || isComment(code)) return undefined;
    const start = line.length - line.trimStart().length + 3;
    const cut = start + Math.floor(random() * (line.length - 2 - start));
    const missing = line.slice(cut);
    if (missing.trim().length < 2 || /^\s/.test(missing)) return undefined;
    return joined(lines, at, line.slice(0, cut), missing, '');
  },
  bracket(lines, at, random) {
    const line = lines[at];
    const match = /\)([;,]?)$/.exec(line.trimEnd());
    if (!match || isComment(line.trim())) return undefined;
    const close = line.trimEnd().length - 1 - match[1].length;
    const open = openingOf(line, close);
    if (open === undefined || close - open < 4) return undefined;
    const cut = open + 1 + Math.floor(random() * (close - open - 3));
    const missing = line.slice(cut, close);
    if (missing.trim().length < 2 || /^\s/.test(missing)) return undefined;
    return joined(lines, at, line.slice(0, cut), missing, line.slice(close));
  },
  block(lines, at) {
    const line = lines[at];
    if (!/\{$/.test(line.trimEnd()) || isComment(line.trim())) return undefined;
    const indent = /^\s*/.exec(line)![0];
    const end = lines.findIndex((other, index) => index > at && other.startsWith(`${indent}}`));
    if (end === -1 || end - at < 2 || end - at > 9) return undefined;
    const body = lines.slice(at + 1, end);
    if (body.some((other) => other.trim() === '' || !other.startsWith(`${indent} `))) return undefined;
    const before = [...lines.slice(0, at), line].join('\n');
    const after = lines.slice(end).join('\n');
    return { text: `${before}\n${after}`, offset: before.length, missing: `\n${body.join('\n')}` };
  },
};

/** The file with `missing` taken out of line `at`: `head` before the cursor, `tail` after it on the same line. */
function joined(lines: string[], at: number, head: string, missing: string, tail: string): Cut {
  const before = [...lines.slice(0, at), head].join('\n');
  const after = [tail, ...lines.slice(at + 1)].join('\n');
  return { text: before + after, offset: before.length, missing };
}

/** The index of the bracket `close` closes, on the same line; undefined when it opens on another. */
function openingOf(line: string, close: number): number | undefined {
  let depth = 0;
  for (let i = close; i >= 0; i--) {
    if (line[i] === ')') depth++;
    else if (line[i] === '(' && --depth === 0) return i;
  }
  return undefined;
}

function isComment(code: string): boolean {
  return /^(\/\/|\/\*|\*|#)/.test(code);
}
