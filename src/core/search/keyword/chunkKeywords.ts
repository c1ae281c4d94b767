import { queryWords, searchWords } from './identifierWords';
import { MASK_WORDS } from './bm25';
import { KeywordIndex } from './keywordIndex';
import type { SavedFileDocs, SavedKeywords } from './keywordIndexFile';

/** What the keyword side needs of an indexed file: its path, and where its words are kept. */
export interface KeywordFile<C extends KeywordChunk> {
  path: string;
  /** Its path's document in the path index. */
  pathDoc: number;
  chunks: C[];
}

/** What the keyword side needs of a chunk: where its words are kept. */
export interface KeywordChunk {
  /** Its text's document in the text index. */
  doc: number;
  /** Its text's cache key: a chunk of a saved index with the same key has the same words. */
  key: string;
}

/** A chunk the keyword side ranked, and whether it holds every known word of the query. */
export interface KeywordRanked<C> {
  chunk: C;
  exact: boolean;
}

/** Files whose path matches a query lend their path's score to their chunks: the best few at most. */
const PATH_FILES = 20;

/**
 * The keyword half of hybrid search: the words of every indexed chunk, and of every indexed file's
 * path, in two BM25 indexes. A chunk's keyword score is its text's score plus its file's path score,
 * two fields summed as in BM25F, so a query that names a file (`chunker.ts`, `auth`) finds it even
 * where its text does not say the name. Paths are indexed apart because a renamed file keeps its
 * chunks but not its path (and the chunks' text is not kept to index them again).
 */
export class ChunkKeywords<C extends KeywordChunk, F extends KeywordFile<C>> {
  private readonly texts: KeywordIndex;
  private readonly paths = new KeywordIndex();
  private readonly chunkOf: (C | undefined)[] = [];
  private readonly fileOf: (F | undefined)[] = [];
  /**
   * Files of a saved text index not added since, by path: their documents are in `texts` (and
   * searched, but not returned) until their file is added, taking back those of unchanged chunks,
   * or {@link forgetSaved} removes them. Paths are indexed anew: one short document a file.
   */
  private readonly saved: Map<string, SavedFileDocs>;

  constructor(saved?: SavedKeywords) {
    this.texts = saved?.index ?? new KeywordIndex();
    this.saved = saved?.files ?? new Map<string, SavedFileDocs>();
  }

  /** Bytes of both indexes' typed arrays and of the id → chunk and file tables (pointers: 8 bytes each at most). */
  get allocatedBytes(): number {
    return this.texts.allocatedBytes + this.paths.allocatedBytes + 8 * (this.chunkOf.length + this.fileOf.length);
  }

  /** Indexes `file`'s path and its chunks, whose texts are `texts` (in the same order); sets their docs. */
  addFile(file: F, texts: readonly string[]): void {
    this.addPath(file);
    const saved = this.takeSaved(file.path);
    file.chunks.forEach((chunk, i) => {
      chunk.doc = saved.get(chunk.key)?.pop() ?? this.texts.add(searchWords(texts[i]));
      this.chunkOf[chunk.doc] = chunk;
    });
    for (const docs of saved.values()) for (const doc of docs) this.texts.remove(doc);
  }

  /** Removes the saved documents of files not added since (after a scan of every file). */
  forgetSaved(): void {
    for (const path of [...this.saved.keys()]) for (const docs of this.takeSaved(path).values()) for (const doc of docs) this.texts.remove(doc);
  }

  /** The text index's state and each file's chunks in it (the saved ones not added since too), to save. */
  toSave(): { snapshot: ReturnType<KeywordIndex['snapshot']>; files: Map<string, SavedFileDocs> } {
    const files = new Map(this.saved);
    for (const file of this.fileOf) if (file) files.set(file.path, [file.chunks.map((chunk) => chunk.key), file.chunks.map((chunk) => chunk.doc)]);
    return { snapshot: this.texts.snapshot(), files };
  }

  /** The saved documents of `path`'s chunks by their key, no longer saved. */
  private takeSaved(path: string): Map<string, number[]> {
    const byKey = new Map<string, number[]>();
    const saved = this.saved.get(path);
    if (!saved) return byKey;
    this.saved.delete(path);
    saved[0].forEach((key, i) => {
      const docs = byKey.get(key);
      if (docs) docs.push(saved[1][i]);
      else byKey.set(key, [saved[1][i]]);
    });
    return byKey;
  }

  /** Forgets `file`'s path and chunks. */
  removeFile(file: F): void {
    this.removePath(file);
    for (const chunk of file.chunks) {
      this.texts.remove(chunk.doc);
      this.chunkOf[chunk.doc] = undefined;
    }
  }

  /** Indexes `file`'s path again after it changed. */
  pathChanged(file: F): void {
    this.removePath(file);
    this.addPath(file);
  }

  /**
   * The `limit` chunks that best match the words of `query`, best first (ties by id), each with
   * whether it is an exact match: it holds (in its text or its path) every name the query gives
   * (see `queryWords`), or, when the query gives none, every query word some chunk or path has.
   */
  rank(query: string, limit: number): KeywordRanked<C>[] {
    const { words, names } = queryWords(query);
    // The text search's arrays, indexed by chunk doc, take the path scores too.
    const { docs: found, scores, words: has, allWords } = this.texts.search(words);
    // Saved documents not taken back by a chunk yet are no results.
    const docs = this.saved.size > 0 ? found.filter((doc) => this.chunkOf[doc] !== undefined) : found;
    const paths = this.paths.search(words);
    for (const pathDoc of best(paths.docs, paths.scores, PATH_FILES)) {
      for (const { doc } of this.fileOf[pathDoc]!.chunks) {
        if (scores[doc] === 0) docs.push(doc);
        scores[doc] += paths.scores[pathDoc];
        has[doc] |= paths.words[pathDoc];
      }
    }
    const required = names.length > 0 ? maskOf(names, [...new Set(words)]) : allWords | paths.allWords;
    return best(docs, scores, limit).map((doc) => ({ chunk: this.chunkOf[doc]!, exact: required !== 0 && (has[doc] & required) === required }));
  }

  private addPath(file: F): void {
    file.pathDoc = this.paths.add(searchWords(file.path, true));
    this.fileOf[file.pathDoc] = file;
  }

  private removePath(file: F): void {
    this.paths.remove(file.pathDoc);
    this.fileOf[file.pathDoc] = undefined;
  }
}

/** The mask bits of `names` among the query's `distinct` words, numbered as KeywordIndex numbers them. */
function maskOf(names: readonly string[], distinct: readonly string[]): number {
  let mask = 0;
  for (const name of names) {
    const at = distinct.indexOf(name);
    if (at < MASK_WORDS) mask |= 1 << at;
  }
  return mask;
}

/** The `limit` best of `docs` by `scores`, best first; ties by id. */
function best(docs: number[], scores: Float64Array, limit: number): number[] {
  return docs.sort((a, b) => scores[b] - scores[a] || a - b).slice(0, limit);
}
