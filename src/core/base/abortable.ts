import { ServiceError } from '../serviceError';

/**
 * `promise`, or a `cancelled` error as soon as `signal` aborts: for work that cannot be stopped
 * itself (a shared token exchange, a name lookup), so that at least its caller stops waiting.
 */
export function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function cancelled(cause?: unknown): ServiceError {
  return new ServiceError('cancelled', 'The request was cancelled.', cause === undefined ? {} : { cause });
}
