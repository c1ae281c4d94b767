import * as assert from 'node:assert/strict';
import * as tls from 'node:tls';
import { splitPemBundle, trustedRoots } from '../../../../src/core';

describe('trusted roots', () => {
  const [first, second] = tls.rootCertificates;

  it("adds extra roots to Node's defaults instead of replacing them", () => {
    const roots = trustedRoots([`${first}\n`]);
    for (const root of tls.rootCertificates) assert.ok(roots.includes(root));
    assert.equal(roots.length >= tls.rootCertificates.length, true);
  });

  it('reads every certificate of a PEM bundle, ignoring text around them', () => {
    const bundle = `# corporate roots\r\n${first.replace(/\n/g, '\r\n')}\r\nsome comment\n${second}\n`;
    assert.deepEqual(splitPemBundle(bundle), [first, second]);
    assert.deepEqual(splitPemBundle('not a certificate'), []);
  });
});
