import { Emulator, type EmulatorOptions } from '../../emulator';
import { ServiceClient, ServiceError, type ServiceClientOptions, type ServiceErrorKind } from '../../../src/core';
import { clientOptionsFor } from './emulatorClient';

/**
 * A running emulator and a client that trusts its throwaway CA, with backoff shortened so retry
 * tests take milliseconds. Use inside a `describe`: starts before the suite, stops after it.
 */
export function useEmulator(options: EmulatorOptions = {}) {
  const fixture = {} as { emulator: Emulator; client: ServiceClient; clientWith(overrides?: Partial<ServiceClientOptions>): ServiceClient };
  const clients: ServiceClient[] = [];
  before(async () => {
    fixture.emulator = await Emulator.start(options);
    fixture.clientWith = (overrides = {}) => {
      const client = new ServiceClient(clientOptionsFor(fixture.emulator, { retry: { baseDelayMs: 5, maxDelayMs: 20 }, timeoutMs: 5_000, ...overrides }));
      clients.push(client);
      return client;
    };
    fixture.client = fixture.clientWith();
  });
  beforeEach(() => {
    fixture.emulator.clearFaults();
    fixture.emulator.resetCounts();
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.dispose()));
    await fixture.emulator?.stop();
  });
  return fixture;
}

/** Asserts that `promise` rejects with a ServiceError of `kind`, and returns it for more checks. */
export async function rejectsWith(promise: Promise<unknown>, kind: ServiceErrorKind): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError && error.kind === kind) return error;
    throw new Error(`expected a ${kind} ServiceError, got ${error instanceof ServiceError ? `${error.kind}: ${error.message}` : String(error)}`, {
      cause: error,
    });
  }
  throw new Error(`expected a ${kind} ServiceError, but the call succeeded`);
}

export const hello = { model: 'GigaChat', messages: [{ role: 'user' as const, content: 'Привет! Расскажи про функцию retry в коде' }] };
