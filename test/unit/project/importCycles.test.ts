import * as assert from 'node:assert/strict';
import { repoRoot } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.join(repoRoot, 'src');

/**
 * Every module under src and the modules it imports, `import type` included: a type-only circle
 * loads fine, but two modules that need each other's words are one concern split in two, and the
 * next runtime import between them closes the circle for real.
 */
function allImports(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (file.endsWith('.ts')) graph.set(file, importsOf(file));
    }
  };
  visit(root);
  return graph;
}

function importsOf(file: string): string[] {
  const source = fs.readFileSync(file, 'utf8');
  const imported: string[] = [];
  for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm)) {
    const target = path.resolve(path.dirname(file), specifier);
    const found = [`${target}.ts`, path.join(target, 'index.ts')].find((candidate) => fs.existsSync(candidate));
    if (found) imported.push(found);
  }
  return imported;
}

/** The groups of modules that import one another in a circle (strongly connected components of more than one, or one importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (module: string): void => {
    index.set(module, next);
    low.set(module, next++);
    stack.push(module);
    onStack.add(module);
    for (const imported of graph.get(module) ?? []) {
      if (!index.has(imported)) {
        connect(imported);
        low.set(module, Math.min(low.get(module)!, low.get(imported)!));
      } else if (onStack.has(imported)) low.set(module, Math.min(low.get(module)!, index.get(imported)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== module);
    if (group.length > 1 || graph.get(module)?.includes(module)) found.push(group.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) connect(module);
  return found;
}

/** Modules that import each other load in an order that depends on who came first: one of them sees the other half-made. */
describe('import cycles', () => {
  it('no module under src imports itself through others, not even for types', () => {
    const graph = allImports();
    assert.ok(graph.size > 100, 'the sources were found where the test looks');
    assert.deepEqual(
      cycles(graph).map((group) => group.map((module) => path.relative(root, module))),
      [],
    );
  });

  it('finds a circle when there is one (the check itself)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    assert.deepEqual(cycles(graph), [['a.ts', 'b.ts', 'c.ts']]);
  });
});
