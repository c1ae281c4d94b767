/**
 * What typesetting formulas adds to drawing a streamed reply.
 *
 * In headless Chromium, through the webview test harness, as webviewRender.ts measures: a
 * 20,000-character reply with 50 formulas (inline `$…$` and displayed `$$…$$`: fractions, sums,
 * roots, matrices) is streamed in the deltas the host's pacer sends, one animation frame per delta;
 * in the same page and the same run, so is the same reply with each formula replaced by plain words
 * of the same length. Printed: the scripting time per delta of each, the difference (what the
 * formulas add), and the longest frame (the target: under 16 ms, one frame at 60 Hz). Each finished
 * block is typeset once; the block still growing is drawn again as it grows, its formulas copied
 * from the typesetter's cache rather than typeset anew.
 *
 *   node out/test/bench/mathRender.js [--chars 20000] [--formulas 50] [--speed 300,1000] [--runs 3]
 */
import { pacedStream } from '../unit/support/pacedStream';
import { longReply, state } from '../webview/fixtures';
import { listOption, numberOption } from './options';
import { median } from './stats';
import { measure, post, stream, withBenchView, type Cost } from './webviewStream';

const MODEL_PIECE = 12;

const FORMULAS = [
  '1\\, 2\\, 3',
  'x^2 + y^2 = z^2',
  '\\frac{a + b}{c - d}',
  '\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
  'x_{1,2} = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}',
  'e^{i\\pi} + 1 = 0',
  '\\int_0^1 x^2\\,dx = \\frac{1}{3}',
  '\\lim_{n \\to \\infty} \\left(1 + \\frac{1}{n}\\right)^n = e',
  '\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
  '\\alpha + \\beta \\geq \\gamma',
];

/** Plain words as long as `length`, standing for a formula in the reply without math. */
function words(length: number): string {
  return 'слово '
    .repeat(Math.ceil(length / 6))
    .slice(0, length)
    .trimEnd()
    .padEnd(length, 'о');
}

/**
 * The benchmark's reply with `count` formulas (every fifth one displayed, in its own paragraph),
 * spread evenly over its paragraphs and lists, and the same reply with plain words in their place.
 */
function replies(chars: number, count: number): { math: string; plain: string } {
  const formulas = Array.from({ length: count }, (_, k) => {
    const tex = FORMULAS[k % FORMULAS.length];
    return k % 5 === 4 ? { prefix: '\n\n', body: `$$\n${tex}\n$$` } : { prefix: ' Формула ', body: `$${tex}$.` };
  });
  // The text around the formulas is shorter by what they add, so the whole is about `chars` long.
  const added = formulas.reduce((sum, { prefix, body }) => sum + prefix.length + body.length, 0);
  const blocks = longReply(Math.max(0, chars - added)).split('\n\n');
  const places = blocks.flatMap((block, index) => (/^(?:Это абзац|- пункт)/.test(block) ? [index] : []));
  const math = [...blocks];
  const plain = [...blocks];
  formulas.forEach(({ prefix, body }, k) => {
    const index = places[Math.floor((k * places.length) / count)];
    math[index] += prefix + body;
    plain[index] += prefix + words(body.length);
  });
  return { math: math.join('\n\n'), plain: plain.join('\n\n') };
}

async function main(): Promise<void> {
  const chars = numberOption('chars', 20_000);
  const count = numberOption('formulas', 50);
  const runs = numberOption('runs', 3);
  const { math, plain } = replies(chars, count);

  await withBenchView(async (view, cdp) => {
    for (const speed of listOption('speed', '300,1000')) {
      const mathDeltas = pacedStream(math, speed, MODEL_PIECE).deltas;
      const plainDeltas = pacedStream(plain, speed, MODEL_PIECE).deltas;
      const withMath: Cost[] = [];
      const without: Cost[] = [];
      let typeset = 0;
      // One warm-up round each, then the two alternate, so neither gets the warmer page.
      for (let run = -1; run < runs; run++) {
        await post(view.page, state({ conversationId: `p${speed}-${run}`, busy: true }));
        const plainCost = await measure(view.page, cdp, () => stream(view.page, `p${speed}-${run}`, 'r', plainDeltas));
        await post(view.page, state({ conversationId: `m${speed}-${run}`, busy: true }));
        const mathCost = await measure(view.page, cdp, () => stream(view.page, `m${speed}-${run}`, 'r', mathDeltas));
        typeset = await view.page.$$eval('.turn-body .katex', (nodes) => nodes.length);
        if (run < 0) continue;
        without.push(plainCost);
        withMath.push(mathCost);
      }
      const perDelta = (costs: Cost[], deltas: number) => (median(costs.map((cost) => cost.script)) / deltas) * 1000;
      const longest = (costs: Cost[]) => median(costs.map((cost) => cost.longestFrame));
      const plainPerDelta = perDelta(without, plainDeltas.length);
      const mathPerDelta = perDelta(withMath, mathDeltas.length);
      console.log(
        `math render benchmark: ${math.length} characters with ${count} formulas (${typeset} typeset on screen), ` +
          `paced by the host at ${speed} characters/s: ${mathDeltas.length} deltas; median of ${runs} runs`,
      );
      const row = (label: string, costs: Cost[], microseconds: number) =>
        console.log(
          `${label.padEnd(26)}${median(costs.map((cost) => cost.script))
            .toFixed(1)
            .padStart(8)} ms script, ${microseconds.toFixed(0).padStart(5)} µs per delta, longest frame ${longest(costs).toFixed(1)} ms`,
        );
      row('without math (same text)', without, plainPerDelta);
      row(`with ${count} formulas`, withMath, mathPerDelta);
      const worst = longest(withMath);
      console.log(
        `added by formulas: ${(mathPerDelta - plainPerDelta).toFixed(0)} µs per delta; longest frame ${worst.toFixed(1)} ms ` +
          `(target < 16 ms: ${worst < 16 ? 'met' : 'NOT met'})`,
      );
      // A frame of GC or of another process on a shared machine shows in one run and not the next:
      // the worst of all runs, for both, tells that apart from a cost of the formulas.
      const worstOf = (costs: Cost[]) => Math.max(...costs.map((cost) => cost.longestFrame)).toFixed(1);
      console.log(`longest frame of any run: ${worstOf(withMath)} ms with formulas, ${worstOf(without)} ms without`);
      console.log('');
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
