/**
 * The emulator on its own thread, for benchmarks: the service's work (making vectors, writing
 * JSON) then runs beside the client under test, as a real server's would, instead of being
 * charged to it. Import `startEmulatorThread` from a benchmark; this file is also the worker.
 */
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { Endpoint, EmulatorOptions } from '../emulator';
import type { EmulatorAddress } from '../unit/support/emulatorClient';

type Call = { call: 'count'; endpoint: Endpoint } | { call: 'resetCounts' | 'stop' };
type Request = Call & { id: number };

export interface EmulatorThread extends EmulatorAddress {
  count(endpoint: Endpoint): Promise<number>;
  resetCounts(): Promise<void>;
  stop(): Promise<void>;
}

export async function startEmulatorThread(options: EmulatorOptions): Promise<EmulatorThread> {
  const worker = new Worker(path.join(__dirname, 'emulatorThread.js'), { workerData: options });
  const pending = new Map<number, (value: unknown) => void>();
  let nextId = 0;
  const ready = new Promise<EmulatorAddress>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { id?: number; value?: unknown; ready?: never }) => {
      if (message.id === undefined) resolve(message as never);
      else {
        pending.get(message.id)?.(message.value);
        pending.delete(message.id);
      }
    });
  });
  const call = <T>(request: Call) =>
    new Promise<T>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve as (value: unknown) => void);
      worker.postMessage({ ...request, id });
    });
  const info = await ready;
  return {
    ...info,
    count: (endpoint) => call<number>({ call: 'count', endpoint }),
    resetCounts: () => call<void>({ call: 'resetCounts' }),
    stop: async () => {
      await call<void>({ call: 'stop' });
      await worker.terminate();
    },
  };
}

async function serve(): Promise<void> {
  const { Emulator } = await import('../emulator');
  const emulator = await Emulator.start(workerData as EmulatorOptions);
  parentPort!.postMessage({ authUrl: emulator.authUrl, baseUrl: emulator.baseUrl, caPem: emulator.caPem, authorizationKey: emulator.authorizationKey });
  parentPort!.on('message', (request: Request) => void answer(request));
  async function answer(request: Request): Promise<void> {
    let value: unknown;
    if (request.call === 'count') value = emulator.count(request.endpoint);
    else if (request.call === 'resetCounts') emulator.resetCounts();
    else await emulator.stop();
    parentPort!.postMessage({ id: request.id, value });
  }
}

if (!isMainThread) void serve();
