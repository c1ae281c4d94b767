import * as assert from 'node:assert/strict';
import { readReplyText, type ChatChunk } from '../../../../src/core';

async function* chunks(...pieces: string[]): AsyncGenerator<ChatChunk> {
  for (const content of pieces) yield { choices: [{ index: 0, delta: { content } }] };
}

const NOTES = { picture: '(picture)', sources: 'Sources' };

describe("readReplyText: a streamed reply as text VS Code's Chat can show", () => {
  it('passes text on as it arrives, piece by piece', async () => {
    const seen: string[] = [];
    const reply = await readReplyText(chunks('Hel', 'lo ', 'world'), NOTES, (text) => seen.push(text));
    assert.deepEqual(seen, ['Hel', 'lo ', 'world']);
    assert.equal(reply.content, 'Hello world');
  });

  it('never shows half a media tag, and puts the note where the picture was', async () => {
    const seen: string[] = [];
    await readReplyText(chunks('Here: <im', 'g src="abc-123" fu', 'se="true"/> done'), NOTES, (text) => seen.push(text));
    assert.ok(
      seen.every((piece) => !piece.includes('<')),
      `no tag text shown: ${JSON.stringify(seen)}`,
    );
    assert.equal(seen.join(''), 'Here: \n\n(picture)\n\n done');
  });

  it('keeps HTML the model only talks about as text', async () => {
    const seen: string[] = [];
    await readReplyText(chunks('Use <b>bold</b> tags'), NOTES, (text) => seen.push(text));
    assert.equal(seen.join(''), 'Use <b>bold</b> tags');
  });

  it("shows a web answer's markers as numbers, never half of one, and its sources as links after it", async () => {
    async function* web(): AsyncGenerator<ChatChunk> {
      for (const content of ['Faster JIT [sour', 'ces=[2]]. UTF-8 [sources=[1', ', 2]].']) yield { choices: [{ index: 0, delta: { content } }] };
      yield {
        choices: [
          {
            index: 0,
            delta: { sources: { '1': { url: 'https://docs.python.org/3/', title: 'Python [docs]' }, '2': { url: 'https://realpython.com/news/' } } },
          },
        ],
      };
    }
    const seen: string[] = [];
    await readReplyText(web(), NOTES, (text) => seen.push(text));
    assert.ok(
      seen.every((piece) => !piece.includes('sources=')),
      JSON.stringify(seen),
    );
    assert.equal(
      seen.join(''),
      'Faster JIT [2]. UTF-8 [1][2].\n\n**Sources**\n\n1. [Python \\[docs\\]](https://docs.python.org/3/) · docs.python.org\n2. [realpython.com](https://realpython.com/news/) · realpython.com\n',
    );
  });

  it('links each source by its whole address, and shows one too long to link as text', async () => {
    const long = `https://example.org/?q=${'a'.repeat(2_000)}`;
    async function* web(): AsyncGenerator<ChatChunk> {
      yield { choices: [{ index: 0, delta: { content: 'Mercury is small [sources=[1, 2]].' } }] };
      const sources = { '1': { url: 'https://en.wikipedia.org/wiki/Mercury_(planet))', title: 'Mercury' }, '2': { url: long, title: 'Long' } };
      yield { choices: [{ index: 0, delta: { sources } }] };
    }
    const seen: string[] = [];
    await readReplyText(web(), NOTES, (text) => seen.push(text));
    assert.equal(
      seen.join(''),
      `Mercury is small [1][2].\n\n**Sources**\n\n1. [Mercury](https://en.wikipedia.org/wiki/Mercury_%28planet%29%29) · en.wikipedia.org\n2. Long · example.org: ${long}\n`,
    );
  });
});
