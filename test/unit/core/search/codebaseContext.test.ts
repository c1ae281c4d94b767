import * as assert from 'node:assert/strict';
import { citationPattern, citationText, locationOf, parseFileLinkHref } from '../../../../src/shared/fileLinks';
import { codebaseBudget, estimateTokens, fitPassages, matchStrength, mergeHits, relevantHits, type QuotedPassage, type SearchHit } from '../../../../src/core';

const hit = (path: string, startLine: number, endLine: number, score: number): SearchHit => ({
  path,
  startLine,
  endLine,
  score,
  preview: `${path}:${startLine}`,
});
const quoted = (path: string, lines: number, score: number, lineText = 'x'.repeat(29)): QuotedPassage => ({
  path,
  startLine: 0,
  endLine: lines - 1,
  score,
  preview: lineText,
  text: Array.from({ length: lines }, () => lineText).join('\n'),
});

describe('codebase context: the passages that go with a question', () => {
  it('merges the chunks of one file that overlap or touch into one passage, placed by its best chunk', () => {
    const passages = mergeHits([
      hit('src/a.ts', 10, 19, 0.7),
      hit('src/b.ts', 0, 9, 0.8),
      hit('src/a.ts', 20, 29, 0.9), // touches the first
      hit('src/a.ts', 25, 34, 0.5), // overlaps the second
      hit('src/a.ts', 60, 69, 0.6), // apart from them
    ]);
    assert.deepEqual(passages, [
      { path: 'src/a.ts', startLine: 10, endLine: 34, score: 0.9, preview: 'src/a.ts:20' },
      { path: 'src/b.ts', startLine: 0, endLine: 9, score: 0.8, preview: 'src/b.ts:0' },
      { path: 'src/a.ts', startLine: 60, endLine: 69, score: 0.6, preview: 'src/a.ts:60' },
    ]);
  });

  it('leaves out the hits far weaker than the best one', () => {
    const hits = [hit('best.ts', 0, 9, 0.8), hit('close.ts', 0, 9, 0.5), hit('far.ts', 0, 9, 0.3), hit('noise.ts', 0, 9, 0.01)];
    assert.deepEqual(
      relevantHits(hits, 0.5).map((kept) => kept.path),
      ['best.ts', 'close.ts'],
    );
    assert.deepEqual(
      relevantHits(hits, 0.1).map((kept) => kept.path),
      ['best.ts', 'close.ts', 'far.ts'],
    );
    assert.deepEqual(relevantHits([], 0.5), []);
  });

  it('says how well a search result matches against the best of its query, not by its raw score', () => {
    // The reviewer's scores: 0.26 is the best of its query, 0.05 a fifth of it.
    assert.deepEqual(
      [0.26, 0.2, 0.12, 0.05].map((score) => matchStrength(score, 0.26)),
      ['strong', 'strong', 'good', 'weak'],
    );
    assert.equal(matchStrength(0, 0), 'weak');
  });

  it('does not merge chunks of different files at the same lines', () => {
    assert.equal(mergeHits([hit('a.ts', 0, 9, 0.9), hit('b.ts', 0, 9, 0.8)]).length, 2);
  });

  it('takes the best passages first within the budget; one too large for what is left is passed over for smaller ones', () => {
    // Each line of 29 characters and its newline: 10 tokens a line.
    const passages = [quoted('best.ts', 30, 0.9), quoted('minified.js', 80, 0.8), quoted('small.ts', 2, 0.7), quoted('other.ts', 70, 0.6)];
    const { chosen, left } = fitPassages(passages, 1000);
    assert.deepEqual(
      chosen.map((passage) => passage.path),
      ['best.ts', 'small.ts'],
      'minified.js does not fit after best.ts, small.ts does; other.ts no longer does',
    );
    assert.equal(left, 2);
    const used = chosen.reduce((sum, passage) => sum + estimateTokens(passage.text), 0);
    assert.ok(used <= 1000);
  });

  it('takes all the passages when they fit', () => {
    const { chosen, left } = fitPassages([quoted('a.ts', 3, 0.9), quoted('b.ts', 3, 0.8)], 1000);
    assert.equal(chosen.length, 2);
    assert.equal(left, 0);
  });

  it('when even the best passage is over the budget, takes its first lines that fit, with its lines to match', () => {
    const { chosen } = fitPassages([quoted('huge.ts', 500, 0.9)], 100);
    assert.equal(chosen.length, 1);
    assert.ok(estimateTokens(chosen[0].text) <= 100);
    assert.equal(chosen[0].endLine - chosen[0].startLine + 1, chosen[0].text.split('\n').length);
    assert.ok(chosen[0].endLine < 499);
  });

  it('derives the budget from the model: room is left for the conversation and the answer', () => {
    const small = codebaseBudget({ maxInputTokens: 32_768, answerTokens: 4_096, conversationTokens: 0 });
    assert.equal(small, 8_192, 'a quarter of a 32K model');
    assert.equal(codebaseBudget({ maxInputTokens: 131_072, answerTokens: 8_192, conversationTokens: 0 }), 12_000, 'a ceiling for large models');
    const late = codebaseBudget({ maxInputTokens: 32_768, answerTokens: 4_096, conversationTokens: 25_000 });
    assert.ok(late < small && late > 0, 'a long conversation leaves less');
    assert.equal(codebaseBudget({ maxInputTokens: 32_768, answerTokens: 4_096, conversationTokens: 40_000 }), 0);
  });

  it('cites a passage as path:line or path:first-last, and reads the citations of a reply back', () => {
    assert.equal(citationText({ file: 'src/app.ts', first: 12, last: 12 }), 'src/app.ts:12');
    assert.equal(citationText({ file: 'src/app.ts', first: 12, last: 20 }), 'src/app.ts:12-20');
    const reply = 'See src/app.ts:12-20 and `lib/util.py:3`, also (README.md:1–2). Not v1.2:3, not http://x.org/a.ts:3, not a.ts:3x.';
    const found = [...reply.matchAll(citationPattern())].map((match) => citationText(locationOf(match)));
    assert.deepEqual(found, ['src/app.ts:12-20', 'lib/util.py:3', 'README.md:1-2']);
    assert.deepEqual(parseFileLinkHref('#file:src/app.ts:20-12'), { file: 'src/app.ts', first: 12, last: 20 });
    assert.equal(parseFileLinkHref('https://example.com/a.ts:3'), undefined);
    assert.equal(parseFileLinkHref('#file:../secret.ts:3'), undefined, 'no path that climbs out of the workspace');
  });
});
