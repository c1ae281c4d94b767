/**
 * How often search finds the place that answers a developer's question: the questions of
 * retrievalQuestions.ts over this repository's src and undici's lib, indexed together through the
 * product's WorkspaceIndexer with the emulator's embeddings (word and trigram features, computed in
 * process: no HTTP), each chunker a row, ranked by the vector alone and by hybrid search (vector and
 * keywords fused). A question is answered at rank r when the r-th hit overlaps its lines.
 *   - Recall@10: the share of questions answered within the first 10 hits;
 *   - MRR: the mean of 1 / r over the questions (0 when not within 10);
 *   - the time a search takes (median of a second pass, ms), and the keyword index's memory per chunk on this code
 *     (heap and array buffers after garbage collection, and its typed arrays alone).
 * Prints; asserts nothing.
 *
 *   node out/test/bench/retrieval.js
 */
import * as fs from 'node:fs';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as os from 'node:os';
import * as path from 'node:path';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import { EmbeddingCache, embeddingText, WorkspaceIndexer, type SearchHit, type SourceFile } from '../../src/core';
import { ChunkKeywords } from '../../src/core/search/keyword/chunkKeywords';
import { lineChunker, SyntaxChunker, type SourceChunker } from '../../src/core/search/syntax/syntaxChunker';
import { embed } from '../emulator/vectors';
import { codeFiles } from './completionCorpus';
import { RETRIEVAL_QUESTIONS, type RetrievalQuestion } from './retrievalQuestions';
import { median } from './stats';

const K = 10;
const MODEL = 'Embeddings';

/** The parser's runtime and grammars as the package installs them (TypeScript and JavaScript, all this corpus needs). */
const PARSER_FOLDER = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));

/** The ways of cutting files into passages, one row each. */
const CHUNKERS: { name: string; load: () => Promise<SourceChunker> }[] = [
  { name: 'line passages', load: () => Promise.resolve(lineChunker) },
  { name: 'syntax passages', load: () => SyntaxChunker.load(PARSER_FOLDER) },
];

v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

function corpus(): SourceFile[] {
  const files = [...codeFiles(path.join(root, 'src'), ['.ts']), ...codeFiles(path.join(root, 'node_modules/undici/lib'), ['.js'])];
  return files.map((file) => ({ path: path.relative(root, file).split(path.sep).join('/'), text: fs.readFileSync(file, 'utf8') }));
}

function vectorOf(text: string): Float32Array {
  return Float32Array.from(embed(text));
}

/** The 1-based rank of the first hit that overlaps the answer's lines (hits' lines are 0-based), or 0. */
function answerRank(hits: readonly SearchHit[], { file, lines: [first, last] }: RetrievalQuestion): number {
  const at = hits.findIndex((hit) => hit.path === file && hit.startLine <= last - 1 && hit.endLine >= first - 1);
  return at + 1;
}

interface Row {
  recall: number;
  mrr: number;
  medianMs: number;
  missed: string[];
}

function measure(indexer: WorkspaceIndexer, hybrid: boolean): Row {
  const ranks: number[] = [];
  const times: number[] = [];
  const missed: string[] = [];
  const asked = RETRIEVAL_QUESTIONS.map((question) => ({ question, vector: vectorOf(question.question), text: hybrid ? question.question : undefined }));
  for (const { question, vector, text } of asked) {
    const rank = answerRank(indexer.search(vector, K, text), question);
    ranks.push(rank);
    if (rank === 0) missed.push(question.question);
  }
  // Timed on a second pass, the code compiled by then as in a session that has searched before.
  for (const { vector, text } of asked) {
    const start = performance.now();
    indexer.search(vector, K, text);
    times.push(performance.now() - start);
  }
  return {
    recall: ranks.filter((rank) => rank > 0).length / ranks.length,
    mrr: ranks.reduce((sum, rank) => sum + (rank > 0 ? 1 / rank : 0), 0) / ranks.length,
    medianMs: median(times),
    missed,
  };
}

async function indexWith(files: SourceFile[], chunker: SourceChunker): Promise<WorkspaceIndexer> {
  const cache = EmbeddingCache.empty(path.join(os.tmpdir(), 'gigachat-retrieval-unused'), MODEL);
  const indexer = new WorkspaceIndexer({ embed: async (texts) => texts.map(vectorOf), cache, chunker });
  await indexer.indexFiles(files);
  return indexer;
}

function settledBytes(): number {
  collect();
  collect();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}

/** The keyword side alone over the chunks `chunker` cuts: what it adds to memory per chunk. */
async function keywordMemory(files: SourceFile[], chunker: SourceChunker): Promise<{ perChunk: number; arraysPerChunk: number }> {
  const texts = await Promise.all(files.map(async (file) => (await chunker.chunk(file.text, file.path)).map(embeddingText)));
  const records = files.map((file, i) => ({ path: file.path, pathDoc: -1, chunks: texts[i].map((_, at) => ({ doc: -1, key: `${file.path}#${at}` })) }));
  const chunks = texts.reduce((sum, list) => sum + list.length, 0);
  const before = settledBytes();
  const keywords = new ChunkKeywords();
  records.forEach((record, i) => keywords.addFile(record, texts[i]));
  keywords.rank('compact', 1); // a search compacts recent documents, as the first search after indexing does
  const after = settledBytes();
  return { perChunk: (after - before) / chunks, arraysPerChunk: keywords.allocatedBytes / chunks };
}

async function main(): Promise<void> {
  const files = corpus();
  console.log(`${RETRIEVAL_QUESTIONS.length} questions over ${files.length} files (src, undici/lib); top ${K}; emulator embeddings`);
  console.log(
    `${'passages'.padEnd(16)} ${'ranking'.padEnd(8)} ${'chunks'.padStart(6)} ${'Recall@10'.padStart(9)} ${'MRR'.padStart(6)} ${'ms/search'.padStart(9)}`,
  );
  const misses: string[] = [];
  for (const { name, load } of CHUNKERS) {
    const chunker = await load();
    const indexer = await indexWith(files, chunker);
    for (const hybrid of [false, true]) {
      const row = measure(indexer, hybrid);
      const ranking = hybrid ? 'hybrid' : 'vector';
      console.log(
        `${name.padEnd(16)} ${ranking.padEnd(8)} ${String(indexer.stats.chunks).padStart(6)} ${row.recall.toFixed(3).padStart(9)} ${row.mrr.toFixed(3).padStart(6)} ${row.medianMs.toFixed(2).padStart(9)}`,
      );
      misses.push(...row.missed.map((question) => `  ${name}, ${ranking}: ${question}`));
    }
    const memory = await keywordMemory(files, chunker);
    console.log(
      `${name}: keyword index ${memory.perChunk.toFixed(0)} bytes per chunk (heap and buffers), ${memory.arraysPerChunk.toFixed(0)} in its typed arrays`,
    );
  }
  if (misses.length > 0) console.log(`not within ${K}:\n${misses.join('\n')}`);
}

void main();
