import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { QueryCodes, quantizeRow } from '../../../../../src/core/search/vector/vectorInt8';
import { VectorIndex, type VectorMatch } from '../../../../../src/core/search/vector/vectorIndex';
import { checkedNorm } from '../../../../../src/core/search/vector/vectorNorm';
import { VectorPage } from '../../../../../src/core/search/vector/vectorPage';
import { Int8Page, int8Stride } from '../../../../../src/core/search/vector/vectorPageInt8';
import { defaultInt8From } from '../../../../../src/core/search/vector/vectorPages';
import { type Random, seededRandom } from '../../../../emulator/random';

/**
 * The int8 first pass (vectorInt8.ts, vectorPageInt8.ts): every first-pass score within its proven
 * bound of the exact one, and searches whose results are those of a float32 brute force, bit for
 * bit, with the SIMD kernels and the plain loops, on data built to sit on the bound's edges.
 */

/** The unit vector of `vector` in float32, as the index stores it. */
function unit(vector: ArrayLike<number>): Float32Array {
  const norm = checkedNorm(vector, vector.length, 'vector');
  return Float32Array.from(vector, (x) => (norm === 0 ? 0 : x / norm));
}

/**
 * Float32 brute force: every vector's exact score by the same float32 kernel the index's exact
 * pass uses (its sum does not depend on where the vector is stored), clamped, best first, then by id.
 */
function bruteForce(vectors: Map<string, Float32Array>, query: ArrayLike<number>, k: number, simd: boolean, accept?: (id: string) => boolean): VectorMatch[] {
  const dimensions = query.length;
  const page = new VectorPage({ dimensions, capacity: 1, simd });
  const q = unit(query);
  if (q.every((x) => x === 0)) return [];
  page.setQuery(q);
  const all: VectorMatch[] = [];
  for (const [id, vector] of vectors) {
    if (accept && !accept(id)) continue;
    page.whole.set(unit(vector));
    all.push({ id, score: Math.max(-1, Math.min(1, page.wholeDot())) });
  }
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, Math.max(0, Math.floor(k)));
}

/** Embedding-like vectors: one of `centroids` centroids plus noise, a few dimensions spread wider. */
function clustered(random: Random, dimensions: number, count: number, centroids = 16): Float32Array[] {
  const spread = Float32Array.from({ length: dimensions }, () => 1 + 4 * random() ** 12);
  const centres = Array.from({ length: centroids }, () => Float32Array.from({ length: dimensions }, () => random() * 2 - 1));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * centroids)];
    return centre.map((x, i) => (x + 0.9 * (random() * 2 - 1)) * spread[i]);
  });
}

function indexOf(vectors: Map<string, Float32Array>, dimensions: number, options: ConstructorParameters<typeof VectorIndex>[1]): VectorIndex {
  const index = new VectorIndex(dimensions, options);
  for (const [id, vector] of vectors) index.add(id, vector);
  return index;
}

/** Searches `vectors` in int8 and bfloat16 indexes with small pages; both must be the brute force's results. */
function assertExact(vectors: Map<string, Float32Array>, queries: ArrayLike<number>[], ks: number[], simd: boolean, label: string): void {
  const dimensions = queries[0].length;
  const int8 = indexOf(vectors, dimensions, { int8From: 0, vectorsPerPage: 64, simd });
  const bf16 = indexOf(vectors, dimensions, { int8From: Infinity, vectorsPerPage: 64, simd });
  assert.equal(int8.precision, 'int8');
  assert.equal(bf16.precision, 'bf16');
  queries.forEach((query, q) => {
    for (const k of ks) {
      const expected = bruteForce(vectors, query, k, simd);
      assert.deepEqual(int8.search(query, k), expected, `${label}: query ${q}, k=${k}, int8`);
      assert.deepEqual(bf16.search(query, k), expected, `${label}: query ${q}, k=${k}, bfloat16`);
    }
  });
}

const both = [true, false] as const;
const plainLabel = (simd: boolean) => (simd ? '' : ', plain loops');

describe('VectorIndex: the int8 first pass', () => {
  describe('pages', () => {
    for (const dimensions of [1, 31, 32, 33, 100, 1024, 2560]) {
      it(`SIMD and plain kernels agree bit for bit, and every score is within its bound, ${dimensions} dimensions`, () => {
        const random = seededRandom(300 + dimensions);
        const capacity = 41;
        const shape = { dimensions, capacity };
        const codes = new QueryCodes(dimensions, int8Stride(dimensions));
        const simd = new Int8Page(shape, codes);
        const plain = new Int8Page({ ...shape, simd: false }, codes);
        assert.equal(simd.simd, true, 'WebAssembly SIMD is unavailable: the fast path is not tested');
        assert.equal(plain.simd, false);
        const rows: Float32Array[] = clustered(random, dimensions, capacity - 5, 4).map(unit);
        // Adversarial rows: zero, one huge component, all negative, all codes at ±127, a near-duplicate.
        rows.push(new Float32Array(dimensions));
        rows.push(unit(Float32Array.from({ length: dimensions }, (_, i) => (i === dimensions >> 1 ? 1e4 : random() - 0.5))));
        rows.push(unit(Float32Array.from({ length: dimensions }, () => -random())));
        rows.push(unit(Float32Array.from({ length: dimensions }, (_, i) => (i % 3 === 0 ? -1 : 1))));
        rows.push(unit(rows[0].map((x) => x * (1 + 1e-6))));
        rows.forEach((row, v) => {
          simd.write(v, row, v);
          plain.write(v, row, v);
        });
        // The worst query for row 0: along what its codes leave out, so its error is its whole residual.
        const worst = rows[0].map((x, i) => x - plain.codes[i] * plain.scales[0]);
        const queries = [unit(clustered(random, dimensions, 1, 4)[0]), unit(worst), unit(rows[3].map((x) => -x)), rows[capacity - 2]];
        for (const [q, query] of queries.entries()) {
          codes.load(query);
          simd.setQuery(query);
          plain.setQuery(query);
          const dots = Array.from(simd.firstPass(capacity));
          assert.deepEqual(Array.from(plain.firstPass(capacity)), dots, `query ${q}: the plain loops' scores`);
          assert.deepEqual(Array.from(plain.bounds), Array.from(simd.bounds), `query ${q}: the plain loops' bounds`);
          rows.forEach((row, v) => {
            let exact = 0;
            for (let i = 0; i < dimensions; i++) exact += row[i] * query[i];
            simd.whole.set(row);
            plain.whole.set(row);
            const whole = simd.wholeDot();
            assert.ok(Math.abs(whole - dots[v]) <= simd.bounds[v], `query ${q}, vector ${v}: first pass ${dots[v]}, exact ${whole}, bound ${simd.bounds[v]}`);
            assert.ok(Math.abs(plain.wholeDot() - dots[v]) <= simd.bounds[v], `query ${q}, vector ${v}: plain exact`);
            assert.ok(Math.abs(exact - dots[v]) <= simd.bounds[v], `query ${q}, vector ${v}: in doubles`);
            assert.ok(plain.matches(v, row), `vector ${v} matches its codes`);
          });
        }
        if (dimensions > 1) {
          // The worst query meets the bound's first term all but exactly: the bound is not loose.
          codes.load(unit(worst));
          simd.setQuery(unit(worst));
          simd.firstPass(capacity);
          simd.whole.set(rows[0]);
          const error = Math.abs(simd.wholeDot() - simd.dots[0]);
          assert.ok(error >= 0.9 * simd.residuals[0], `error ${error}, residual ${simd.residuals[0]}`);
        }
      });
    }

    it('codes each row within ±127 of its own scale, knows a row that is not its own, and keeps a zero row at zero', () => {
      const random = seededRandom(9);
      const dimensions = 50;
      const row = unit(Float32Array.from({ length: dimensions }, () => random() * 2 - 1));
      const codes = new Int8Array(dimensions);
      const { scale, residual } = quantizeRow(row, dimensions, codes, 0);
      const largest = Math.max(...row.map(Math.abs));
      assert.equal(scale, Math.fround(largest / 127));
      assert.ok(codes.some((c) => Math.abs(c) === 127));
      let squares = 0;
      row.forEach((x, i) => {
        assert.ok(Math.abs(x - codes[i] * scale) <= scale / 2 + 1e-12, `component ${i}`);
        squares += (x - codes[i] * scale) ** 2;
      });
      assert.ok(residual >= Math.sqrt(squares) && residual <= Math.sqrt(squares) * (1 + 1e-5), `residual ${residual}`);

      const page = new Int8Page({ dimensions, capacity: 2 }, new QueryCodes(dimensions, int8Stride(dimensions)));
      page.write(1, row, 5);
      assert.equal(page.rows[1], 5);
      assert.ok(page.matches(1, row));
      const nudged = row.slice();
      nudged[7] += scale; // one code off by one
      assert.ok(!page.matches(1, nudged), 'a row with one component changed is not this vector');
      const scaled = row.map((x) => x * 0.5);
      assert.ok(!page.matches(1, scaled), 'the same direction at another size is not this vector');

      page.write(0, new Float32Array(dimensions), 0);
      assert.equal(page.scales[0], 0);
      assert.equal(page.residuals[0], 0);
      const back = new Float32Array(dimensions).fill(1);
      page.readRounded(0, back);
      assert.ok(back.every((x) => x === 0));
    });
  });

  describe('search equals float32 brute force, bit for bit', () => {
    for (const simd of both) {
      it(`on clustered data like embeddings, across page boundaries${plainLabel(simd)}`, () => {
        const random = seededRandom(51);
        for (const [dimensions, count] of [
          [96, 1500],
          [1024, 300],
        ]) {
          const vectors = new Map<string, Float32Array>();
          clustered(random, dimensions, count).forEach((vector, i) => vectors.set(`c${i}`, vector));
          const queries = clustered(random, dimensions, 4);
          assertExact(vectors, queries, [1, 10, 37, count + 1], simd, `d=${dimensions}`);
        }
      });

      it(`ranks near-ties the first pass cannot tell apart${plainLabel(simd)}`, () => {
        const random = seededRandom(52);
        const dimensions = 64;
        const vectors = new Map<string, Float32Array>();
        clustered(random, dimensions, 200).forEach((vector, i) => vectors.set(`far${i}`, vector));
        const base = clustered(random, dimensions, 1)[0];
        const near = (spread: number) => base.map((x) => x + spread * (random() * 2 - 1));
        for (let i = 0; i < 300; i++) vectors.set(`near${i}`, near(1e-3));
        // Copies nudged in their last bits, and exact copies (equal scores, ordered by id).
        for (let i = 0; i < 20; i++)
          vectors.set(
            `bit${i}`,
            base.map((x, j) => (j === i ? x * (1 + 2 ** -22) : x)),
          );
        for (let i = 0; i < 5; i++) vectors.set(`same${4 - i}`, base.slice());
        assertExact(vectors, [near(1e-3), base, near(1e-4)], [1, 10, 37], simd, 'near-ties');
      });

      it(`keeps the best vector when its first-pass score is as far below as its bound allows and a rival's as far above${plainLabel(simd)}`, () => {
        // The query is A's rounding error e (unit), so A's first pass is below its exact score by
        // all of ‖e‖. Rival C has A's codes plus one step towards e in t components, minus e: its
        // first pass gains s·Δ·e over A's and its error is -e, so it is above its exact score by
        // ‖e‖. The largest t that leaves C exactly below A puts the first pass's order the wrong
        // way round by nearly the sum of the two bounds.
        const random = seededRandom(57);
        const dimensions = 64;
        const a = unit(clustered(random, dimensions, 1)[0]);
        const codes = new Int8Array(dimensions);
        const { scale } = quantizeRow(a, dimensions, codes, 0);
        const error = a.map((x, i) => x - codes[i] * scale);
        const query = unit(error);
        const steps = [...error.keys()].filter((i) => Math.abs(codes[i]) < 126).sort((x, y) => Math.abs(error[y]) - Math.abs(error[x]));
        const rival = (t: number) =>
          unit(a.map((_, i) => (codes[i] + (steps.indexOf(i) < t && steps.indexOf(i) >= 0 ? Math.sign(error[i]) : 0)) * scale - error[i]));
        const score = (vector: Float32Array) => bruteForce(new Map([['x', vector]]), query, 1, simd)[0].score;
        let t = 0;
        while (t < steps.length && score(rival(t + 1)) < score(a)) t++;
        const c = rival(t);
        const queryCodes = new QueryCodes(dimensions, int8Stride(dimensions));
        const page = new Int8Page({ dimensions, capacity: 2, simd }, queryCodes);
        page.write(0, a, 0);
        page.write(1, c, 1);
        queryCodes.load(query);
        page.setQuery(query);
        const [firstA, firstC] = page.firstPass(2);
        assert.ok(
          firstC - firstA >= 0.8 * (page.bounds[0] + page.bounds[1]),
          `the construction: C's first pass ${firstC} above A's ${firstA} by ${firstC - firstA}, bounds ${page.bounds[0]} + ${page.bounds[1]}`,
        );

        const vectors = new Map<string, Float32Array>([
          ['A', a],
          ['C', c],
        ]);
        // Others below them both, for pages to scan.
        clustered(random, dimensions, 300).forEach((vector, i) => score(vector) < score(c) && vectors.set(`far${i}`, vector));
        assert.equal(bruteForce(vectors, query, 1, simd)[0].id, 'A', 'the construction: A scores best exactly');
        assertExact(vectors, [query], [1, 2], simd, 'A and its rival');
      });

      it(`with a row of one huge component, zero rows and negative values${plainLabel(simd)}`, () => {
        const random = seededRandom(53);
        const dimensions = 48;
        const vectors = new Map<string, Float32Array>();
        clustered(random, dimensions, 300).forEach((vector, i) => vectors.set(`c${i}`, vector));
        const spike = Float32Array.from({ length: dimensions }, () => random() - 0.5);
        spike[5] = 1e6; // its scale is set by this one: every other code is 0
        vectors.set('spike', spike);
        vectors.set(
          'spike-',
          spike.map((x) => -x),
        );
        vectors.set(
          'tall',
          spike.map((x, i) => (i === 5 ? 30 : x)),
        ); // its other codes are a few steps each
        vectors.set(
          'tall-',
          spike.map((x, i) => (i === 5 ? -30 : -x)),
        );
        for (let i = 0; i < 3; i++) vectors.set(`zero${i}`, new Float32Array(dimensions));
        for (let i = 0; i < 50; i++)
          vectors.set(
            `neg${i}`,
            Float32Array.from({ length: dimensions }, () => -random()),
          );
        const along = new Float32Array(dimensions);
        along[5] = 1;
        const queries = [along, along.map((x) => -x), Float32Array.from({ length: dimensions }, () => -random()), spike.map((x, i) => (i === 5 ? 0 : x))];
        assertExact(vectors, queries, [1, 5, 10, 400], simd, 'adversarial');
        // Only zero rows: every score 0, ordered by id.
        const zeros = new Map([...Array(5).keys()].map((i) => [`z${4 - i}`, new Float32Array(dimensions)]));
        assertExact(zeros, [along], [3], simd, 'zero rows');
      });

      it(`keeps only the accepted ids${plainLabel(simd)}`, () => {
        const random = seededRandom(54);
        const dimensions = 40;
        const vectors = new Map<string, Float32Array>();
        clustered(random, dimensions, 500).forEach((vector, i) => vectors.set(`c${i}`, vector));
        const index = indexOf(vectors, dimensions, { int8From: 0, vectorsPerPage: 50, simd });
        const accept = (id: string) => id.endsWith('3') || id.endsWith('7');
        for (const query of clustered(random, dimensions, 3)) {
          assert.deepEqual(index.search(query, 10, accept), bruteForce(vectors, query, 10, simd, accept));
        }
      });
    }
  });

  describe('choosing by size', () => {
    let dir: string;
    beforeEach(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vector-int8-'));
    });
    afterEach(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('bfloat16 up to 64 MiB of pages, int8 beyond; a wrong size is refused', () => {
      assert.equal(defaultInt8From(1024), 32_769);
      assert.equal(defaultInt8From(2560), 13_108);
      assert.equal(new VectorIndex(1024).precision, 'bf16');
      assert.throws(() => new VectorIndex(4, { int8From: -1 }), /int8From must be at least 0/);
      assert.throws(() => new VectorIndex(4, { int8From: Number.NaN }), /int8From must be at least 0/);
    });

    for (const simd of both) {
      it(`turns int8 when it grows past the size, from rows in memory and in the vectors file, exact throughout${plainLabel(simd)}`, () => {
        const random = seededRandom(55);
        const dimensions = 72;
        const vectors = new Map<string, Float32Array>();
        clustered(random, dimensions, 400).forEach((vector, i) => vectors.set(`c${i}`, vector));
        const ids = [...vectors.keys()];
        // The first 150 from the vectors file, as the cache loads them; the rest added in memory.
        const file = path.join(dir, 'vectors.f32');
        const saved = ids.slice(0, 150).map((id) => unit(vectors.get(id)!));
        fs.writeFileSync(file, Buffer.concat(saved.map((row) => Buffer.from(row.buffer))));
        const index = new VectorIndex(dimensions, { int8From: 250, vectorsPerPage: 32, simd });
        saved.forEach((row, i) => index.addFromFile(ids[i], row, file, i));
        for (const id of ids.slice(150, 249)) index.add(id, vectors.get(id)!);
        assert.equal(index.precision, 'bf16');
        const queries = clustered(random, dimensions, 3);
        const model = new Map(ids.slice(0, 249).map((id) => [id, vectors.get(id)!]));
        for (const query of queries) assert.deepEqual(index.search(query, 10), bruteForce(model, query, 10, simd), 'bfloat16');
        index.add(ids[249], vectors.get(ids[249])!);
        assert.equal(index.precision, 'int8', 'at the size');
        for (const id of ids.slice(250)) index.add(id, vectors.get(id)!);
        for (const query of queries) {
          assert.deepEqual(index.search(query, 10), bruteForce(vectors, query, 10, simd), 'int8');
          assert.ok(index.lastExactScores >= 10 && index.lastExactScores < index.size / 2, `${index.lastExactScores} vectors scored exactly`);
        }
        for (const id of ids.slice(0, 300)) index.remove(id);
        assert.equal(index.precision, 'int8', 'and stays so');
        for (const id of ids.slice(0, 300)) vectors.delete(id);
        for (const query of queries) assert.deepEqual(index.search(query, 10), bruteForce(vectors, query, 10, simd), 'after removals');
        assert.equal(index.inexactReads, 0);
        const back = new Float32Array(dimensions);
        assert.ok(index.readVector(ids[399], back));
        assert.deepEqual(back, unit(vectors.get(ids[399])!), 'a vector reads back bit for bit');
      });
    }

    it('an int8 index notices rows of its vectors file that are not its own, and searches on from its codes', () => {
      const random = seededRandom(56);
      const dimensions = 64;
      const rows = clustered(random, dimensions, 200).map(unit);
      const file = path.join(dir, 'vectors.f32');
      fs.writeFileSync(file, Buffer.concat(rows.map((row) => Buffer.from(row.buffer))));
      const index = new VectorIndex(dimensions, { int8From: 0 });
      rows.forEach((row, i) => index.addFromFile(`r${i}`, row, file, i));
      const query = clustered(random, dimensions, 1)[0];
      const exact = index.search(query, 10);
      assert.equal(index.inexactReads, 0);
      // Another writer's file in its place: the same rows, shuffled.
      fs.writeFileSync(file, Buffer.concat([...rows.slice(100), ...rows.slice(0, 100)].map((row) => Buffer.from(row.buffer))));
      const replaced = index.search(query, 10);
      assert.ok(index.inexactReads > 0, 'the rows read back were seen not to be these vectors');
      replaced.forEach((m, rank) => assert.ok(Math.abs(m.score - exact[rank].score) <= 0.02, `rank ${rank}: ${m.score} is not near ${exact[rank].score}`));
    });
  });
});
