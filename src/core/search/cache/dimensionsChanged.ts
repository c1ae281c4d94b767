import { ServiceError } from '../../serviceError';

/** The code of the error below: the host rebuilds the index on it. */
export const DIMENSIONS_CHANGED = 'EMBEDDING_DIMENSIONS_CHANGED';

/**
 * The embeddings model answered with vectors of another length than the index holds: the service
 * changed the model behind its name, or the cache on disk came from elsewhere. Vectors of two lengths
 * cannot be compared, so the cached ones are of no use any more (see WorkspaceIndexer.discardVectors).
 */
export function dimensionsChanged(held: number, received: number): ServiceError {
  return new ServiceError('protocol', `The embeddings model answered with ${received}-dimensional vectors; the search index holds ${held}-dimensional ones.`, {
    code: DIMENSIONS_CHANGED,
  });
}

export function isDimensionsChanged(error: unknown): error is ServiceError {
  return error instanceof ServiceError && error.code === DIMENSIONS_CHANGED;
}
