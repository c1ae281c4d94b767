import * as assert from 'node:assert/strict';
import { replyTextOf, toViewTurn } from '../../src/host/chat/viewTurns';
import type { ImageAttachment } from '../../src/shared/protocol';

const MARKER = '\uFFFC';

function picture(fileId: string): ImageAttachment {
  return { fileId, dataUri: `data:image/png;base64,${fileId}` };
}

describe('a stored reply as the view shows it', () => {
  const content = 'First: <img src="one" fuse="true"/> then: <img src="two" fuse="true"/> done.';

  it('puts a marker where each picture goes, with the pictures in the same order', () => {
    const turn = toViewTurn({ id: 'a', role: 'assistant', content, status: 'done' }, new Map([['one', picture('one')], ['two', picture('two')]]));
    assert.equal(turn.content, `First: ${MARKER} then: ${MARKER} done.`);
    assert.deepEqual(turn.images?.map((image) => image.fileId), ['one', 'two']);
  });

  it('drops the marker of a picture that could not be had, so the next one shows in its own place', () => {
    const turn = toViewTurn({ id: 'a', role: 'assistant', content, status: 'done' }, new Map([['two', picture('two')]]));
    assert.equal(turn.content, `First:  then: ${MARKER} done.`);
    assert.deepEqual(turn.images?.map((image) => image.fileId), ['two']);
  });

  it('keeps every marker of a reply still streaming: its pictures are on their way', () => {
    const turn = toViewTurn({ id: 'a', role: 'assistant', content, status: 'streaming' });
    assert.equal(turn.content.split(MARKER).length - 1, 2);
  });

  it('Copy reply gets the text without the media tags or markers', () => {
    assert.equal(replyTextOf(content), 'First:  then:  done.');
    assert.equal(replyTextOf('**bold** and `code`'), '**bold** and `code`');
  });
});
