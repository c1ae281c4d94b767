/**
 * What a proxy adds to a request, on loopback: the same requests to the emulator directly and
 * through the test proxy (CONNECT tunnel, Basic credentials), interleaved so that load from other
 * processes hits both alike. Prints medians, the difference and the ratio; asserts nothing
 * (test/unit/core/service/client.proxy.test.ts checks that the proxy is used at all).
 *   - warm: GET /models on a kept-alive connection (the tunnel is set up once, then reused): the
 *     per-request cost of relaying through one more process;
 *   - new connection: a token exchange on a fresh client: TCP, CONNECT and the TLS handshake
 *     through the tunnel, then the request.
 *
 *   node out/test/bench/proxyOverhead.js [--requests 400] [--connections 40]
 */
import { ServiceClient, type ServiceClientOptions } from '../../src/core';
import { Emulator, TestProxy } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { median, percentile } from './stats';
import { numberOption } from './options';

const requests = numberOption('requests', 400);
const connections = numberOption('connections', 40);
const WARM_UP = 20;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

function report(label: string, direct: number[], proxied: number[]): void {
  const [d, p] = [median(direct), median(proxied)];
  console.log(
    `${label.padEnd(16)} direct ${d.toFixed(2)} ms · through the proxy ${p.toFixed(2)} ms · added ${(p - d).toFixed(2)} ms · ratio ${(p / d).toFixed(2)}×   (medians of ${direct.length}; p90 ${percentile(direct, 0.9).toFixed(2)} / ${percentile(proxied, 0.9).toFixed(2)} ms)`,
  );
}

async function main(): Promise<void> {
  const emulator = await Emulator.start();
  const proxy = await TestProxy.start({ credentials: { username: 'bench', password: 'bench-password' } });
  // The machine's own proxy variables must not take part.
  const options = clientOptionsFor(emulator, { proxy: { url: '', noProxy: '*' } });
  const viaProxy: ServiceClientOptions = { ...options, proxy: { url: proxy.urlWith('bench', 'bench-password') } };
  const clients: ServiceClient[] = [];
  const client = (overrides: ServiceClientOptions) => {
    const made = new ServiceClient(overrides);
    clients.push(made);
    return made;
  };
  try {
    const direct = client(options);
    const proxied = client(viaProxy);
    for (let i = 0; i < WARM_UP; i++) await Promise.all([direct.models(), proxied.models()]);
    const warm = { direct: [] as number[], proxied: [] as number[] };
    for (let i = 0; i < requests; i++) {
      // Alternate which goes first, so neither always follows the other.
      const order = i % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
      for (const which of order) warm[which].push(await timed(() => (which === 'direct' ? direct : proxied).models()));
    }

    const fresh = { direct: [] as number[], proxied: [] as number[] };
    for (let i = 0; i < connections; i++) {
      const order = i % 2 === 0 ? (['direct', 'proxied'] as const) : (['proxied', 'direct'] as const);
      for (const which of order) {
        const once = client(which === 'direct' ? options : viaProxy);
        fresh[which].push(await timed(() => once.authorize()));
        await once.dispose();
      }
    }
    console.log(`proxy overhead on loopback: ${proxy.tunnels.length} tunnels opened`);
    report('warm request', warm.direct, warm.proxied);
    report('new connection', fresh.direct, fresh.proxied);
  } finally {
    await Promise.all(clients.map((c) => c.dispose()));
    await proxy.stop();
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
