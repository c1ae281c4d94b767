import * as assert from 'node:assert/strict';
import { parseMediaReply, stableStreamingPrefix } from '../../../../src/core';

describe('media tags in replies', () => {
  it('finds a generated image and keeps the text around it', () => {
    const reply = parseMediaReply('Вот кот: <img src="3727db23-91a3-44fa-a6b7-9f0a311d3e9e" fuse="true"/> Here is the pink cat you asked for.');
    assert.deepEqual(reply.fileIds, ['3727db23-91a3-44fa-a6b7-9f0a311d3e9e']);
    assert.deepEqual(reply.parts, [
      { type: 'text', text: 'Вот кот: ' },
      { type: 'image', fileId: '3727db23-91a3-44fa-a6b7-9f0a311d3e9e' },
      { type: 'text', text: ' Here is the pink cat you asked for.' },
    ]);
  });

  it('finds videos with their cover, in any attribute order and quoting', () => {
    const reply = parseMediaReply('<video cover=\'c0ver-1\' fuse="true" src="vid-2" />done');
    assert.deepEqual(reply.parts, [
      { type: 'video', fileId: 'vid-2', coverFileId: 'c0ver-1' },
      { type: 'text', text: 'done' },
    ]);
    assert.deepEqual(reply.fileIds, ['c0ver-1', 'vid-2']);
  });

  it('leaves HTML the model merely talks about as text', () => {
    const content = 'Use `<img src="logo.png"/>` or <img src="../../etc/passwd" fuse="true"/> carefully.';
    const reply = parseMediaReply(content);
    assert.deepEqual(reply.fileIds, []);
    assert.deepEqual(reply.parts, [{ type: 'text', text: content }]);
  });

  it('holds back a half-received tag while streaming, and nothing else', () => {
    assert.equal(stableStreamingPrefix('Here it is <img src="3727'), 'Here it is ');
    assert.equal(stableStreamingPrefix('Here it is <'), 'Here it is ');
    assert.equal(stableStreamingPrefix('if a < b then'), 'if a < b then');
    assert.equal(stableStreamingPrefix('done <img src="x" fuse="true"/> ok'), 'done <img src="x" fuse="true"/> ok');
  });
});
