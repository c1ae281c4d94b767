import * as assert from 'node:assert/strict';
import { isLoopbackUrl, travelsUnencrypted } from '../../../../src/core/network/loopback';

describe("this machine's own addresses", () => {
  it('are localhost and names under it, 127.0.0.0/8 however written, and ::1', () => {
    for (const url of [
      'http://localhost:11434',
      'http://LocalHost.',
      'http://a.localhost',
      'http://127.0.0.1',
      'http://127.255.0.9:1',
      'http://127.1',
      'http://[::1]',
      'http://[::ffff:127.0.0.1]',
    ])
      assert.ok(isLoopbackUrl(url), url);
    for (const url of [
      'http://localhost.example.com',
      'http://mylocalhost',
      'http://10.0.0.1',
      'http://0.0.0.0',
      'http://[::]',
      'http://[::ffff:10.0.0.1]',
      'not a url',
      '',
    ])
      assert.ok(!isLoopbackUrl(url), url);
  });

  it('plain http to another machine carries the key and the code unencrypted; https, or http to this machine, does not', () => {
    assert.ok(travelsUnencrypted('http://gpu-box:11434'));
    assert.ok(travelsUnencrypted(' HTTP://10.0.0.5:8080/v1 '));
    for (const url of ['https://gpu-box:11434', 'http://localhost:11434', 'http://127.0.0.1:8080', 'http://[::1]:8000', 'gpu-box:11434', ''])
      assert.ok(!travelsUnencrypted(url), url);
  });
});
