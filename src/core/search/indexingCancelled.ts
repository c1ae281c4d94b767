import { ServiceError } from '../serviceError';

/** The error an indexing run rejects with when its caller aborts it. */
export function indexingCancelled(): ServiceError {
  return new ServiceError('cancelled', 'Indexing was cancelled.');
}
