import * as assert from 'node:assert/strict';
import { fitHostMessage } from '../../../../src/host/chat/fitMessage';
import { replyTextOf, streamedDelta, toViewTurn } from '../../../../src/host/chat/viewTurns';
import { LIMITS, type ImageAttachment, type Turn } from '../../../../src/shared/protocol';

const MARKER = '\uFFFC';

function picture(fileId: string): ImageAttachment {
  return { fileId, src: `https://file%2B.vscode-resource.vscode-cdn.net/storage/images/${fileId}.png` };
}

describe('a stored reply as the view shows it', () => {
  const content = 'First: <img src="one" fuse="true"/> then: <img src="two" fuse="true"/> done.';

  it('puts a marker where each picture goes, with the pictures in the same order', () => {
    const turn = toViewTurn(
      { id: 'a', role: 'assistant', content, status: 'done' },
      new Map([
        ['one', picture('one')],
        ['two', picture('two')],
      ]),
    );
    assert.equal(turn.content, `First: ${MARKER} then: ${MARKER} done.`);
    assert.deepEqual(
      turn.images?.map((image) => image.fileId),
      ['one', 'two'],
    );
  });

  it('drops the marker of a picture that could not be had, so the next one shows in its own place', () => {
    const turn = toViewTurn({ id: 'a', role: 'assistant', content, status: 'done' }, new Map([['two', picture('two')]]));
    assert.equal(turn.content, `First:  then: ${MARKER} done.`);
    assert.deepEqual(
      turn.images?.map((image) => image.fileId),
      ['two'],
    );
  });

  it('keeps every marker of a reply still streaming: its pictures are on their way', () => {
    const turn = toViewTurn({ id: 'a', role: 'assistant', content, status: 'streaming' });
    assert.equal(turn.content.split(MARKER).length - 1, 2);
  });

  it('Copy reply gets the text without the media tags or markers', () => {
    assert.equal(replyTextOf({ content }), 'First:  then:  done.');
    assert.equal(replyTextOf({ content: '**bold** and `code`' }), '**bold** and `code`');
  });

  it('a reply streamed past what the view shows: the deltas stop there, and its final state is the same text, saying it is cut', () => {
    const piece = `${'word '.repeat(8_399)}word\n\n`; // 42,001 characters, paragraphs as a model writes
    let content = '';
    let streamed = '';
    let shown = 0;
    let cut = false;
    while (content.length < LIMITS.text + 100_000) {
      content += piece;
      const next = streamedDelta(content, shown);
      streamed += next.text;
      shown = next.shown;
      cut = next.cut;
    }
    assert.equal(streamed, content.slice(0, LIMITS.text));
    assert.ok(cut, 'the reply goes on past it');
    assert.equal(streamedDelta(`${content}more`, shown).text, '', 'nothing more is sent');
    const final = fitHostMessage({ type: 'turnUpdated', turn: toViewTurn({ id: 'a', role: 'assistant', content, status: 'done' }) }).message as { turn: Turn };
    assert.equal(final.turn.content, streamed, 'the view keeps what it drew while the reply streamed');
    assert.equal(final.turn.fullLength, content.length);
  });
});
