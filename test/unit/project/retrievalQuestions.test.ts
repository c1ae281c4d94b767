import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RETRIEVAL_QUESTIONS } from '../../bench/retrievalQuestions';

describe('retrieval questions: every answer is where the set says', () => {
  it('has at least 50 questions over two codebases, in English and Russian, each asked once', () => {
    assert.ok(RETRIEVAL_QUESTIONS.length >= 50, `${RETRIEVAL_QUESTIONS.length} questions`);
    assert.ok(RETRIEVAL_QUESTIONS.some((q) => q.file.startsWith('src/')));
    assert.ok(RETRIEVAL_QUESTIONS.some((q) => q.file.startsWith('node_modules/undici/lib/')));
    assert.ok(RETRIEVAL_QUESTIONS.filter((q) => /[а-яё]/i.test(q.question)).length >= 10, 'Russian questions');
    assert.equal(new Set(RETRIEVAL_QUESTIONS.map((q) => q.question)).size, RETRIEVAL_QUESTIONS.length);
  });

  for (const { question, file, lines, anchor } of RETRIEVAL_QUESTIONS) {
    it(`${file}:${lines[0]}-${lines[1]} answers “${question}”`, () => {
      const text = fs.readFileSync(path.join(root, file), 'utf8').split(/\r\n|\r|\n/);
      const [first, last] = lines;
      assert.ok(
        Number.isInteger(first) && Number.isInteger(last) && first >= 1 && first <= last && last <= text.length,
        `lines ${first}-${last} of ${text.length}`,
      );
      assert.ok(text[first - 1].includes(anchor), `line ${first} is “${text[first - 1]}”, not “${anchor}”`);
      assert.ok(/\S/.test(text.slice(first - 1, last).join('')), 'the answer has text');
    });
  }
});
