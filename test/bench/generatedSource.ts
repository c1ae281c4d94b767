/**
 * Generated TypeScript for the memory figures of semantic search (test/bench/searchMemory.ts and
 * the benchmark suite in the real extension host): files of about 8 chunks of the chunker's
 * default size, each different, so every chunk has a vector of its own.
 */

/** The text of generated file `n`. */
export function generatedSourceText(n: number): string {
  const lines: string[] = [];
  for (let f = 0; f < 5; f++) {
    lines.push(`export function step${n}_${f}(input: Record<string, number>): number {`);
    for (let i = 0; i < 24; i++) lines.push(`  const value${i} = input['key${(n * 31 + f * 7 + i) % 997}'] ?? ${i}; // part ${i} of step ${f} in module ${n}`);
    lines.push('  return value0;', '}', '');
  }
  return lines.join('\n');
}
