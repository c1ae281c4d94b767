/**
 * What guarding the links of @gigachat's answer costs as it streams (core/agent/linkGuard.ts), in
 * the extension host, per delta: an answer of prose with links and of fenced code (each code line
 * is confirmed by a CommonMark parse of all that was shown before it, the costly part), streamed
 * in deltas of 3 to 40 characters, versus passing the same deltas on unguarded. Prints the time
 * added per delta (median and worst) and in all, up to 45,000 characters (past 50,000 code is guarded
 * like prose, so a line costs no parse). Target: the worst delta under 16 ms (a frame), so
 * the guard never makes the answer stutter.
 *
 *   node out/test/bench/linkGuard.js [--answers 20]
 */
import { LinkGuard } from '../../src/core';
import { seededRandom } from '../unit/support/random';
import { numberOption } from './options';
import { median, percentile } from './stats';

const answers = numberOption('answers', 20);

/** An answer of about `chars` characters: paragraphs with web and file links, and code blocks of 20 lines. */
function answer(chars: number): string {
  const parts: string[] = [];
  for (let i = 0; parts.join('').length < chars; i++) {
    parts.push(`Paragraph ${i} explains [the docs](https://example.com/${i}) and [a file](file:///work/project/src/f${i}.ts) in some words. `.repeat(3));
    parts.push(
      `\n\n\`\`\`ts\n${Array.from({ length: 20 }, (_, line) => `const handler${line} = handlers[name${line}](event); // ${i}`).join('\n')}\n\`\`\`\n\n`,
    );
  }
  return parts.join('');
}

function deltasOf(text: string, random: () => number): string[] {
  const deltas: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 3 + Math.floor(random() * 38);
    deltas.push(text.slice(at, at + size));
    at += size;
  }
  return deltas;
}

function main(): void {
  const random = seededRandom(7);
  const allowed = (destination: string) => destination.startsWith('file:///work/project/');
  for (const size of [5_000, 20_000, 45_000]) {
    const text = answer(size);
    const perDelta: number[] = [];
    let guarded = 0;
    let plain = 0;
    for (let run = 0; run < answers; run++) {
      const deltas = deltasOf(text, random);
      const startPlain = performance.now();
      let copy = '';
      for (const delta of deltas) copy += delta;
      plain += performance.now() - startPlain;
      const guard = new LinkGuard(allowed);
      const start = performance.now();
      let shown = '';
      for (const delta of deltas) {
        const before = performance.now();
        shown += guard.push(delta);
        perDelta.push(performance.now() - before);
      }
      shown += guard.end();
      guarded += performance.now() - start;
      if (shown !== text || copy !== text) throw new Error('the guard changed an answer with only safe links');
    }
    console.log(
      `${text.length.toLocaleString('en-US')} characters, ${perDelta.length / answers} deltas: per delta median ${median(perDelta).toFixed(3)} ms, ` +
        `p99 ${percentile(perDelta, 0.99).toFixed(3)} ms, worst ${Math.max(...perDelta).toFixed(2)} ms (target < 16 ms) · ` +
        `in all ${(guarded / answers).toFixed(1)} ms per answer, unguarded ${(plain / answers).toFixed(2)} ms`,
    );
  }
}

main();
