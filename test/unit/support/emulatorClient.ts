import type { ServiceClientOptions } from '../../../src/core';

/** What a client needs to know of a running emulator (in this process or on a worker thread). */
export interface EmulatorAddress {
  authorizationKey: string;
  authUrl: string;
  baseUrl: string;
  caPem: string;
}

/** Options for a client of `emulator`: its key and addresses, trusting its throwaway CA. */
export function clientOptionsFor(emulator: EmulatorAddress, overrides: Partial<ServiceClientOptions> = {}): ServiceClientOptions {
  return {
    authorizationKey: emulator.authorizationKey,
    scope: 'GIGACHAT_API_PERS',
    authUrl: emulator.authUrl,
    baseUrl: emulator.baseUrl,
    ca: [emulator.caPem],
    ...overrides,
  };
}
