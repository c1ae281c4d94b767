import { createHash } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { Chunk, ChunkOptions } from './chunker';
import type { SourceChunker } from './syntaxChunker';

/**
 * Where each file's chunks lie in its text, kept beside the embedding cache so that a rescan cuts an
 * unchanged file without parsing it again: tree-sitter reads about 1.5 MiB of code a second, and a
 * window that opens rescans every file. A file is known by a hash of its text (times and sizes say
 * nothing on a file system that keeps no reliable modification times, and the scan reads the text
 * anyway for its words). A chunk is recorded as its lines and the part of them that is its text;
 * one that this cannot say exactly (no chunker makes one today) leaves its file unrecorded, so it is
 * parsed each time rather than cut wrongly.
 */

/** Numbers a chunk takes in `FileBoundaries.chunks`. */
const FIELDS = 5;
/** Format of the file, and what is recorded: another chunker or other options cut otherwise. */
const FORMAT = 1;

interface FileBoundaries {
  hash: string;
  /** Per chunk: start line, end line, where its text starts in those lines joined by '\n', its length, its context's index (-1: none). */
  chunks: Int32Array;
  contexts: string[];
}

interface BoundariesFile {
  format: number;
  /** The chunker and options the boundaries were cut with. */
  stamp: string;
  files: Record<string, { hash: string; chunks: number[]; contexts: string[] }>;
}

/** The hash a file's text is recognized by. */
export function textHash(text: string): string {
  return createHash('sha256').update(text).digest('base64').slice(0, 24);
}

/** A text's lines as the chunkers count them (CRLF, CR and LF each end a line). */
function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

export class ChunkBoundaries {
  private readonly files = new Map<string, FileBoundaries>();
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly chunker: string,
    /** What the boundaries depend on besides the text: the chunker and its options. */
    private readonly stamp: string,
  ) {}

  /**
   * The boundaries saved in `directory` by the chunker named `chunker` (a name that changes when
   * it cuts otherwise) with `options`; none when the file is missing, unreadable or of another
   * chunker or options.
   */
  static async load(directory: string, chunker: string, options: ChunkOptions): Promise<ChunkBoundaries> {
    const stamp = stampOf(chunker, options);
    const boundaries = new ChunkBoundaries(path.join(directory, ChunkBoundaries.FILE), chunker, stamp);
    let saved: BoundariesFile;
    try {
      saved = JSON.parse(await fs.readFile(boundaries.file, 'utf8')) as BoundariesFile;
    } catch {
      return boundaries;
    }
    if (saved?.format !== FORMAT || saved.stamp !== stamp || typeof saved.files !== 'object') return boundaries;
    for (const [key, entry] of Object.entries(saved.files)) {
      if (typeof entry?.hash !== 'string' || !Array.isArray(entry.chunks) || entry.chunks.length % FIELDS !== 0 || !Array.isArray(entry.contexts)) continue;
      boundaries.files.set(key, { hash: entry.hash, chunks: Int32Array.from(entry.chunks), contexts: entry.contexts });
    }
    return boundaries;
  }

  static readonly FILE = 'chunks.json';

  /** Whether these boundaries were cut with `options` (else they say nothing of a cut with them). */
  cutWith(options: ChunkOptions): boolean {
    return stampOf(this.chunker, options) === this.stamp;
  }

  get size(): number {
    return this.files.size;
  }

  /** The chunks of `text` as recorded for `key` under `hash`, or undefined when its text was another. */
  chunksOf(key: string, hash: string, text: string): Chunk[] | undefined {
    const known = this.files.get(key);
    if (known?.hash !== hash) return undefined;
    const lines = linesOf(text);
    const chunks: Chunk[] = [];
    for (let i = 0; i < known.chunks.length; i += FIELDS) {
      const [startLine, endLine, start, length, context] = known.chunks.subarray(i, i + FIELDS);
      if (endLine >= lines.length) return undefined;
      const chunk: Chunk = { text: joined(lines, startLine, endLine).slice(start, start + length), startLine, endLine };
      if (context >= 0) chunk.context = known.contexts[context];
      chunks.push(chunk);
    }
    return chunks;
  }

  /** Records how `text` (of hash `hash`) was cut; a cut that cannot be said by lines forgets the file instead. */
  record(key: string, hash: string, text: string, chunks: readonly Chunk[]): void {
    this.changed = true;
    const lines = linesOf(text);
    const numbers = new Int32Array(chunks.length * FIELDS);
    const contexts: string[] = [];
    for (let i = 0; i < chunks.length; i++) {
      const { startLine, endLine, context } = chunks[i];
      const start = endLine < lines.length ? joined(lines, startLine, endLine).indexOf(chunks[i].text) : -1;
      if (start < 0) {
        this.files.delete(key);
        return;
      }
      let contextIndex = -1;
      if (context !== undefined) {
        contextIndex = contexts.indexOf(context);
        if (contextIndex < 0) contextIndex = contexts.push(context) - 1;
      }
      numbers.set([startLine, endLine, start, chunks[i].text.length, contextIndex], i * FIELDS);
    }
    this.files.set(key, { hash, chunks: numbers, contexts });
  }

  /** Keeps only the files in `keys` (the index's after a full scan). */
  retain(keys: Iterable<string>): void {
    const kept = new Set(keys);
    for (const key of this.files.keys()) {
      if (!kept.has(key)) {
        this.files.delete(key);
        this.changed = true;
      }
    }
  }

  /** Writes the boundaries when they changed since loaded or saved (to a new file, then renamed over the old one). */
  async save(): Promise<void> {
    if (!this.changed) return;
    this.changed = false;
    const files: BoundariesFile['files'] = {};
    for (const [key, { hash, chunks, contexts }] of this.files) files[key] = { hash, chunks: Array.from(chunks), contexts };
    const content: BoundariesFile = { format: FORMAT, stamp: this.stamp, files };
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true });
      const temporary = `${this.file}.${process.pid}.tmp`;
      await fs.writeFile(temporary, JSON.stringify(content));
      await fs.rename(temporary, this.file);
    } catch (error) {
      this.changed = true;
      throw error;
    }
  }
}

/** What boundaries depend on besides the text: boundaries cut otherwise are not reused. */
function stampOf(chunker: string, options: ChunkOptions): string {
  return JSON.stringify([chunker, options.maxChars ?? null, options.overlapLines ?? null]);
}

/** Lines `start`..`end` of `lines`, joined by '\n' (one line as it is). */
function joined(lines: readonly string[], start: number, end: number): string {
  return start === end ? lines[start] : lines.slice(start, end + 1).join('\n');
}

/**
 * A chunker that cuts a file it has seen with the same text as it did then (from `boundaries`),
 * and asks `parser` only for new or changed files, recording how those were cut.
 */
export class ReusingChunker implements SourceChunker {
  /** Files cut from their recorded boundaries, and files handed to the parser, since made. */
  readonly counts = { reused: 0, parsed: 0 };

  constructor(
    private readonly parser: SourceChunker,
    private readonly boundaries: ChunkBoundaries,
  ) {}

  async chunk(text: string, languageIdOrPath: string, options: ChunkOptions = {}): Promise<Chunk[]> {
    if (!this.boundaries.cutWith(options)) return this.parser.chunk(text, languageIdOrPath, options);
    const hash = textHash(text);
    const known = this.boundaries.chunksOf(languageIdOrPath, hash, text);
    if (known) {
      this.counts.reused += 1;
      return known;
    }
    this.counts.parsed += 1;
    const chunks = await this.parser.chunk(text, languageIdOrPath, options);
    this.boundaries.record(languageIdOrPath, hash, text, chunks);
    return chunks;
  }
}
