import * as assert from 'node:assert/strict';
import { consentStanding, readConsent } from '../../../../src/host/search/consentRecord';

const A = 'file:///work/app';
const B = 'file:///work/lib';

describe('the agreement to index: folders and embeddings model', () => {
  it('covers the folders agreed to, with the model agreed to', () => {
    assert.deepEqual(consentStanding({ folders: [A, B], model: 'Embeddings' }, [A], 'Embeddings'), { kind: 'granted' });
    assert.deepEqual(consentStanding({ folders: [A, B], model: 'Embeddings' }, [A, B], 'Embeddings'), { kind: 'granted' });
  });

  it('another model set since (by the user or a workspace’s settings) needs a new agreement, naming the model agreed to', () => {
    assert.deepEqual(consentStanding({ folders: [A], model: 'Embeddings' }, [A], 'EmbeddingsGigaR'), { kind: 'otherModel', agreedModel: 'Embeddings' });
  });

  it('a folder added since is not agreed to, whatever the model', () => {
    assert.deepEqual(consentStanding({ folders: [A], model: 'Embeddings' }, [A, B], 'Embeddings'), { kind: 'none' });
    assert.deepEqual(consentStanding({ folders: [A], model: 'Embeddings' }, [A, B], 'EmbeddingsGigaR'), { kind: 'none' });
  });

  it('no agreement, or state that is not one, agrees to nothing', () => {
    for (const stored of [undefined, null, 'yes', 42, {}, { folders: [A] }, { folders: 'A', model: 'Embeddings' }]) {
      assert.deepEqual(consentStanding(stored, [A], 'Embeddings'), { kind: 'none' }, JSON.stringify(stored));
    }
  });

  it('an agreement stored before the model was recorded (a list of folders) holds for the model set now: an update asks nobody again', () => {
    assert.deepEqual(readConsent([A, 7]), { folders: [A] });
    assert.deepEqual(consentStanding([A], [A], 'Embeddings'), { kind: 'granted' });
    assert.deepEqual(consentStanding([A], [A, B], 'Embeddings'), { kind: 'none' });
  });
});
