import * as assert from 'node:assert/strict';
import { asServiceError, ServiceError } from '../../../../src/core';
import { EmbeddingCache } from '../../../../src/core/search/cache/embeddingCache';
import { WorkspaceIndexer } from '../../../../src/core/search/indexer';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

describe('the extension’s own failures', () => {
  it('are internal, with the exception’s name and message, never a reply the service garbled', () => {
    const overflow = new RangeError('Maximum call stack size exceeded');
    const failure = asServiceError(overflow);
    assert.equal(failure.kind, 'internal');
    assert.equal(failure.message, 'RangeError: Maximum call stack size exceeded');
    assert.equal(failure.cause, overflow, 'the log finds where it was thrown');
    assert.equal(asServiceError('a string thrown').kind, 'internal');
    assert.equal(asServiceError(undefined).message, 'undefined');
  });

  it('leave the service’s own errors as they are', () => {
    const garbled = new ServiceError('protocol', 'The service answered with invalid JSON', { requestId: 'r-1' });
    assert.equal(asServiceError(garbled), garbled);
  });

  it('that stop an index run reach its caller as internal, not as the service’s', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'internal-'));
    try {
      const indexer = new WorkspaceIndexer({
        // A fault in the extension's own code on the way to the service.
        embed: () => Promise.reject(new TypeError("Cannot read properties of undefined (reading 'length')")),
        cache: await EmbeddingCache.load(dir, 'Embeddings'),
      });
      const error = await indexer.indexFiles([{ path: 'a.ts', text: 'export const a = 1;\n' }]).then(
        () => assert.fail('the run resolved'),
        (error: unknown) => error,
      );
      const failure = asServiceError(error);
      assert.equal(failure.kind, 'internal');
      assert.match(failure.message, /^TypeError: Cannot read properties/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
