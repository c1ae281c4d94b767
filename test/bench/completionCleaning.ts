/**
 * How often the cleaning of a suggestion gives back exactly the missing code (target ≥ 95%), over
 * places cut from real code (completionCorpus.ts): this repository's `src` and undici's `lib`
 * (a codebase nobody here wrote). At each place the emulator answers with the right code in each
 * form chat models give it (test/emulator/completion-noise.ts: within the answer tags the prompt
 * asks for, and without them, as a fenced block and a sentence or as bare code), through the whole path a
 * suggestion takes (the prompt, the stream read to the answer's end, the cleaning). Prints the
 * rate, the misses by form and by kind of place, and a few misses to read.
 *
 *   node out/test/bench/completionCleaning.js [--points 600] [--seed 7]
 */
import * as path from 'node:path';
import { repoRoot as root } from '../unit/support/repoRoot';
import { ServiceClient } from '../../src/core';
import { completeAt } from '../../src/core/completion/completeAt';
import { Emulator } from '../emulator';
import { COMPLETION_NOISES, type CompletionNoise } from '../emulator/completion-noise';
import { clientOptionsFor } from '../unit/support/emulatorClient';
import { codeFiles, cutPoints, type CutKind, type CutPoint } from './completionCorpus';
import { numberOption } from './options';

const points = numberOption('points', 600);
const seed = numberOption('seed', 7);

const CODEBASES = [
  { name: 'this repository (src)', files: codeFiles(path.join(root, 'src'), ['.ts']) },
  { name: 'undici (lib)', files: codeFiles(path.join(root, 'node_modules/undici/lib'), ['.js']) },
];

async function main(): Promise<void> {
  const emulator = await Emulator.start({ streamDelayMs: 0 });
  const client = new ServiceClient(clientOptionsFor(emulator, { proxy: { url: '', noProxy: '*' } }));
  const misses: { point: CutPoint; noise: CompletionNoise; got: string }[] = [];
  const byNoise = new Map<CompletionNoise, number>(COMPLETION_NOISES.map((noise) => [noise, 0]));
  const byKind = new Map<CutKind, { asked: number; missed: number }>();
  let asked = 0;
  try {
    for (const [index, codebase] of CODEBASES.entries()) {
      const corpus = cutPoints(codebase.files, Math.ceil(points / CODEBASES.length), seed + index);
      console.log(`${codebase.name}: ${corpus.length} places (${countBy(corpus)}) from ${codebase.files.length} files`);
      for (const point of corpus) {
        for (const noise of COMPLETION_NOISES) {
          emulator.inject({ kind: 'completion', missing: point.missing, noise }, { endpoint: 'chat' });
          const { text } = await completeAt(
            client,
            {
              model: 'GigaChat-2',
              path: 'file.ts',
              languageId: 'typescript',
              text: point.text,
              offset: point.offset,
              multiline: point.multiline,
              budgetChars: 4096,
              maxTokens: 160,
              indent: '  ',
            },
            {},
          );
          asked++;
          const kind = byKind.get(point.kind) ?? { asked: 0, missed: 0 };
          kind.asked++;
          byKind.set(point.kind, kind);
          if (text === point.missing) continue;
          kind.missed++;
          byNoise.set(noise, byNoise.get(noise)! + 1);
          misses.push({ point, noise, got: text });
        }
      }
    }
  } finally {
    await client.dispose();
    await emulator.stop();
  }
  const exact = asked - misses.length;
  console.log(`exactly the missing code: ${exact} of ${asked} suggestions, ${((100 * exact) / asked).toFixed(1)}% (target ≥ 95%)`);
  console.log(`misses by the form of the reply: ${[...byNoise].map(([noise, count]) => `${noise} ${count}`).join(' · ')}`);
  console.log(`misses by the kind of place: ${[...byKind].map(([kind, { asked: all, missed }]) => `${kind} ${missed} of ${all}`).join(' · ')}`);
  for (const { point, noise, got } of misses
    .filter((miss) => process.argv.includes('--all') || miss.noise === 'none')
    .slice(0, process.argv.includes('--all') ? 1000 : 6)) {
    console.log(`  ${point.kind}/${noise} in ${path.relative(root, point.file)}: wanted ${JSON.stringify(point.missing)}, got ${JSON.stringify(got)}`);
  }
}

function countBy(corpus: CutPoint[]): string {
  const counts = new Map<CutKind, number>();
  for (const point of corpus) counts.set(point.kind, (counts.get(point.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
