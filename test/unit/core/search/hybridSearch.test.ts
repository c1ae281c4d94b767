import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { relevantHits, type SearchHit } from '../../../../src/core';
import { EmbeddingCache } from '../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer, type SourceFile } from '../../../../src/core/search/indexer';
import type { SourceChunker } from '../../../../src/core/search/syntax/syntaxChunker';
import { embed as emulatorEmbed } from '../../../emulator/vectors';

/**
 * The emulator's embeddings (word and trigram features) of the text with its identifiers taken out
 * (words with an inner capital, `_` or a digit): a model that reads the prose around code but not
 * the names in it, which is how an exact name gets missed by meaning alone.
 */
function proseOnly(text: string): Float32Array {
  return Float32Array.from(emulatorEmbed(text.replace(/[\p{L}\p{N}_$]*(?:\p{Ll}\p{Lu}|_|\d)[\p{L}\p{N}_$]*/gu, ' ')));
}

/** Twelve files about retries and delays, in prose, and one that computes a delay under its name. */
function workspace(): SourceFile[] {
  const prose = Array.from({ length: 12 }, (_, i) => ({
    path: `src/retry/notes${i}.ts`,
    text: [
      `// Where the delay before a retry is computed: step ${i}.`,
      `// The retry waits for the delay the server asked for, then computes the next delay.`,
      `export const note${i} = 'retry delay computed here';`,
    ].join('\n'),
  }));
  const target = {
    path: 'src/http/backoff.ts',
    text: ['export function retryAfterDelay(header: string | null): number {', '  return header ? Number(header) * 1000 : 500;', '}'].join('\n'),
  };
  return [...prose, target, { path: 'src/chunker.ts', text: '// Splits text into pieces.\nexport const pieces = 1;' }];
}

async function indexed(files: SourceFile[], chunker?: SourceChunker): Promise<WorkspaceIndexer> {
  const cache = EmbeddingCache.empty(path.join(os.tmpdir(), 'gigachat-hybrid-unused'), 'Embeddings');
  const indexer = new WorkspaceIndexer({ embed: async (texts) => texts.map(proseOnly), cache, chunker });
  await indexer.indexFiles(files);
  return indexer;
}

function search(indexer: WorkspaceIndexer, query: string, k = 5, hybrid = true): SearchHit[] {
  return indexer.search(proseOnly(query), k, hybrid ? query : undefined);
}

describe('hybrid search: meaning and words, fused', () => {
  it('finds first an exact identifier the embedding misses, and keeps it as relevant', async () => {
    const indexer = await indexed(workspace());
    const query = 'where is retryAfterDelay computed';
    const byMeaning = search(indexer, query, 10, false);
    assert.ok(!byMeaning.slice(0, 10).some((hit) => hit.path === 'src/http/backoff.ts'), 'the embedding alone misses it');
    const hits = search(indexer, query);
    assert.equal(hits[0].path, 'src/http/backoff.ts');
    assert.equal(hits[0].exact, true);
    assert.ok(hits[0].score < byMeaning[0].score / 2, 'its cosine is low…');
    assert.equal(relevantHits(hits, 0.5)[0].path, 'src/http/backoff.ts', '…yet it is not left out as noise');
  });

  it('matches the parts of a camelCase name, and a file by its name', async () => {
    const indexer = await indexed(workspace());
    assert.equal(search(indexer, 'retry after delay header')[0].path, 'src/http/backoff.ts');
    assert.equal(search(indexer, 'chunker.ts')[0].path, 'src/chunker.ts');
  });

  it('without the query text ranks by meaning alone, as before', async () => {
    const indexer = await indexed(workspace());
    const hits = search(indexer, 'retry delay computed', 3, false);
    assert.equal(hits.length, 3);
    assert.ok(hits.every((hit) => hit.path.startsWith('src/retry/') && hit.exact === undefined));
    assert.ok(hits[0].score >= hits[1].score && hits[1].score >= hits[2].score);
  });

  it('forgets a removed file, finds a renamed one by its new name only, and an edited one by its new words', async () => {
    const indexer = await indexed(workspace());
    assert.equal(indexer.removeFile('src/http/backoff.ts'), true);
    assert.ok(!search(indexer, 'retryAfterDelay', 20).some((hit) => hit.path === 'src/http/backoff.ts'));
    assert.ok(!search(indexer, 'retryAfterDelay', 20).some((hit) => hit.exact));

    assert.equal(indexer.renameFile('src/chunker.ts', 'src/splitter.ts'), true);
    assert.equal(search(indexer, 'splitter.ts')[0].path, 'src/splitter.ts');
    assert.ok(!search(indexer, 'chunker.ts', 20).some((hit) => hit.exact));

    await indexer.updateFile('src/retry/notes3.ts', 'export function jitteredBackoff(attempt: number) { return attempt; }');
    assert.equal(search(indexer, 'jitteredBackoff')[0].path, 'src/retry/notes3.ts');
    assert.ok(!search(indexer, 'step 3', 20).some((hit) => hit.path === 'src/retry/notes3.ts' && hit.exact), 'its old words are gone');
  });

  it('cuts files with the chunker given, which sees the path, and searches its chunks by their words', async () => {
    const seen: string[] = [];
    const wholeFiles: SourceChunker = {
      chunk: (text, languageIdOrPath) => {
        seen.push(languageIdOrPath);
        return Promise.resolve([{ text, startLine: 0, endLine: text.split('\n').length - 1 }]);
      },
    };
    const indexer = await indexed(workspace(), wholeFiles);
    assert.deepEqual(
      seen.sort(),
      workspace()
        .map((file) => file.path)
        .sort(),
    );
    assert.deepEqual(
      indexer.file('src/http/backoff.ts')?.chunks.map((chunk) => [chunk.startLine, chunk.endLine]),
      [[0, 2]],
    );
    assert.equal(search(indexer, 'retryAfterDelay')[0].path, 'src/http/backoff.ts');
  });
});
