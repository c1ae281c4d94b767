/**
 * Token exchanges under continuous use: 20 concurrent callers keep sending chat requests for ten
 * token lifetimes, with the emulator's token lifetime shortened to a few seconds. Goal: one
 * exchange per token (never one per caller, never one per request), and no call failing because
 * its token expired. Prints; asserts nothing (test/unit/core/service/auth.test.ts checks the token manager).
 *
 * The client renews a token before it expires (at 90 % of a short lifetime; 60 s early for the
 * service's 30-minute tokens), so ten lifetimes hold ⌊10 / 0.9⌋ + 1 = 12 renewals, not 10: the
 * figure to compare with is the count that policy implies, printed next to it.
 *
 * Requests repeated after a 401 are not failures (the client renews once and repeats them), but
 * they mean a token expired in flight: that happens when the process stalls for longer than the
 * renewal margin (300 ms of a 3 s token), so the longest event-loop pause is printed beside them.
 *
 *   node out/test/bench/tokenRenewal.js [--lifetime-ms 3000] [--callers 20] [--lifetimes 10]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ServiceClient } from '../../src/core';
import { Emulator } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { numberOption } from './options';

const lifetimeMs = numberOption('lifetime-ms', 3_000);
const callers = numberOption('callers', 20);
const lifetimes = numberOption('lifetimes', 10);
/** A pause between one caller's requests, so 20 callers do not take both cores of a shared machine. */
const THINK_MS = 20;
/** Mirrors the token manager: renew at 90 % of a lifetime shorter than ten minutes. */
const RENEW_AT = 0.9;

async function main(): Promise<void> {
  const emulator = await Emulator.start({ tokenLifetimeMs: lifetimeMs });
  const client = new ServiceClient(clientOptionsFor(emulator, { timeoutMs: 10_000 }));
  const request = { model: 'GigaChat', messages: [{ role: 'user' as const, content: 'Short question' }] };
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  let calls = 0;
  const failures = new Map<string, number>();
  try {
    // The first exchange, connection and JIT warm-up, before the clock starts; a call like the others.
    calls += 1;
    await client.chat(request);
    loopDelay.enable();
    const started = Date.now();
    const deadline = started + lifetimes * lifetimeMs;
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (Date.now() < deadline) {
          calls += 1;
          try {
            await client.chat(request);
          } catch (error) {
            const kind = (error as { kind?: string }).kind ?? String(error);
            failures.set(kind, (failures.get(kind) ?? 0) + 1);
          }
          await new Promise((resolve) => setTimeout(resolve, THINK_MS));
        }
      }),
    );
    const elapsedMs = Date.now() - started;
    const exchanges = emulator.count('oauth');
    const chatRequests = emulator.count('chat');
    const failed = [...failures.values()].reduce((sum, n) => sum + n, 0);
    const expected = Math.floor(lifetimes / RENEW_AT) + 1;
    console.log(
      `token renewal: ${callers} concurrent callers for ${lifetimes} token lifetimes of ${(lifetimeMs / 1000).toFixed(1)} s (${(elapsedMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `token exchanges:             ${exchanges}   (goal: one per token — ${lifetimes} at renewal on expiry; ${expected} with renewal at 90 % of each lifetime, which this client does)`,
    );
    console.log(`duplicate exchanges:         ${Math.max(0, exchanges - expected)}   (goal 0)`);
    console.log(
      `calls made:                  ${calls}, failed ${failed}${failed ? ` (${[...failures].map(([kind, n]) => `${kind} ${n}`).join(', ')})` : ''}   (goal: none failed)`,
    );
    console.log(`requests repeated after 401: ${chatRequests - calls}   (a token that expired in flight; goal 0)`);
    console.log(
      `longest event-loop pause:    ${(loopDelay.max / 1e6).toFixed(0)} ms   (renewal margin ${((1 - RENEW_AT) * lifetimeMs).toFixed(0)} ms; a longer pause lets tokens expire in flight)`,
    );
  } finally {
    loopDelay.disable();
    await client.dispose();
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
