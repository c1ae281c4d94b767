import * as assert from 'node:assert/strict';
import { readReplyText, type ChatChunk } from '../../src/core';

async function* chunks(...pieces: string[]): AsyncGenerator<ChatChunk> {
  for (const content of pieces) yield { choices: [{ index: 0, delta: { content } }] };
}

describe("readReplyText: a streamed reply as text VS Code's Chat can show", () => {
  it('passes text on as it arrives, piece by piece', async () => {
    const seen: string[] = [];
    const reply = await readReplyText(chunks('Hel', 'lo ', 'world'), '(picture)', (text) => seen.push(text));
    assert.deepEqual(seen, ['Hel', 'lo ', 'world']);
    assert.equal(reply.content, 'Hello world');
  });

  it('never shows half a media tag, and puts the note where the picture was', async () => {
    const seen: string[] = [];
    await readReplyText(chunks('Here: <im', 'g src="abc-123" fu', 'se="true"/> done'), '(picture)', (text) => seen.push(text));
    assert.ok(
      seen.every((piece) => !piece.includes('<')),
      `no tag text shown: ${JSON.stringify(seen)}`,
    );
    assert.equal(seen.join(''), 'Here: \n\n(picture)\n\n done');
  });

  it('keeps HTML the model only talks about as text', async () => {
    const seen: string[] = [];
    await readReplyText(chunks('Use <b>bold</b> tags'), '(picture)', (text) => seen.push(text));
    assert.equal(seen.join(''), 'Use <b>bold</b> tags');
  });
});
