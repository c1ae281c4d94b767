/**
 * What a commit message costs, on real changes of this repository (the diffs of 1, 10 and 40
 * commits before a fixed commit), against the emulator at a fixed 100 ms latency:
 *   - tokens sent per 1,000 changed lines: the digest (secrets and lock files named only, the
 *     change summarised within its budget) against a baseline that sends the raw diff;
 *   - the time to the first character of the message, from the diff's text: the digest built (the
 *     repository's ignore rules read, the change judged and summarised) and the reply's first
 *     text cleaned, against the raw diff sent as it is. Interleaved; medians.
 * Asserts nothing (test/unit/core/scm/commitMessage.test.ts checks what is sent).
 *
 *   node out/test/bench/commitMessage.js [--runs 5]
 */
import { execFileSync } from 'node:child_process';
import { repoRoot as root } from '../unit/support/repoRoot';
import * as os from 'node:os';
import {
  commitMessagePrompt,
  estimateTokens,
  FolderExclusions,
  parseUnifiedDiff,
  rulesJudge,
  ServiceClient,
  toServiceConversation,
  FunctionNames,
} from '../../src/core';
import { commitMessageRequest, streamCommitMessage } from '../../src/core/scm/commitMessage';
import { Emulator } from '../emulator';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { numberOption } from './options';
import { median } from './stats';

const runs = numberOption('runs', 5);
const LATENCY_MS = 100;
const MODEL = 'GigaChat-2';
/** A commit of this repository's history, so the changes measured stay the same as the repository grows. */
const BASE = '28d4ac7';
const CHANGES = [1, 10, 40];

async function firstCharacter(run: (onText: () => void) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let first: number | undefined;
  await run(() => (first ??= performance.now() - started));
  return first ?? Number.NaN;
}

async function main(): Promise<void> {
  const emulator = await Emulator.start({ latencyMs: LATENCY_MS, streamDelayMs: 2 });
  const client = new ServiceClient(clientOptionsFor(emulator, { proxy: { url: '', noProxy: '*' } }));
  const sentTokens = () => {
    const chat = emulator.requests.filter((request) => request.endpoint === 'chat').at(-1);
    return estimateTokens(chat?.chat?.messages.map((message) => message.content).join('\n') ?? '');
  };
  try {
    for (const commits of CHANGES) {
      const diff = execFileSync('git', ['diff', `${BASE}~${commits}`, BASE], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
      const files = parseUnifiedDiff(diff);
      const changed = files.reduce((sum, file) => sum + file.added + file.removed, 0);
      const digested: number[] = [];
      const raw: number[] = [];
      let tokens = { digest: 0, raw: 0 };
      /** Why the raw diff got no answer (the service refuses a request larger than the model's context). */
      let refused: string | undefined;
      for (let run = 0; run < runs; run++) {
        digested.push(
          await firstCharacter(async (onText) => {
            const rules = await FolderExclusions.open(root, { home: os.homedir(), variables: process.env });
            const { request } = await commitMessageRequest({
              scope: 'staged',
              files: parseUnifiedDiff(diff),
              judge: rulesJudge(rules),
              history: [],
              language: 'en',
              fallbackLanguage: 'en',
              instructions: '',
              maxInputTokens: 131_072,
            });
            await streamCommitMessage(client, MODEL, request, new AbortController().signal, onText);
          }),
        );
        tokens.digest = sentTokens();
        raw.push(
          await firstCharacter(async (onText) => {
            // The same instructions, with the diff as git prints it in place of the digest.
            const prompt = commitMessagePrompt({
              digest: diff,
              style: { subjects: [] },
              language: 'en',
              fallbackLanguage: 'en',
              instructions: '',
              scope: 'staged',
            });
            const { messages } = toServiceConversation(prompt, new FunctionNames());
            for await (const chunk of client.chatStream({ model: MODEL, messages })) if (chunk.choices[0]?.delta.content) onText();
          }).catch((error: { kind?: string }) => {
            refused = error.kind ?? 'failed';
            return Number.NaN;
          }),
        );
        tokens.raw = sentTokens();
      }
      const perThousand = (count: number) => Math.round((count * 1000) / changed);
      console.log(
        `${commits} commits (${files.length} files, ${changed} changed lines): tokens sent per 1,000 changed lines: digest ${perThousand(tokens.digest)} · raw diff ${perThousand(tokens.raw)} ` +
          `(${tokens.digest} against ${tokens.raw} in all) · first character at ${LATENCY_MS} ms latency: digest ${median(digested).toFixed(1)} ms · ${refused ? `raw diff refused (${refused})` : `raw diff ${median(raw).toFixed(1)} ms`} (medians of ${runs})`,
      );
      tokens = { digest: 0, raw: 0 };
    }
  } finally {
    await client.dispose();
    await emulator.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
