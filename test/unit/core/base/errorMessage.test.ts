import * as assert from 'node:assert/strict';
import { messageOf } from '../../../../src/core';

describe('messageOf: what a caught failure says, whatever was thrown', () => {
  it('gives an Error’s message, a subclass’s too', () => {
    assert.equal(messageOf(new Error('disk full')), 'disk full');
    assert.equal(messageOf(new TypeError('not a function')), 'not a function');
  });

  it('gives what a library threw that is not an Error as text (a cast to Error would read no message from it)', () => {
    assert.equal(messageOf('EACCES: permission denied'), 'EACCES: permission denied');
    assert.equal(messageOf(42), '42');
  });
});
