import * as assert from 'node:assert/strict';
import { VectorIndex, type VectorMatch } from '../../../../../src/core/search/vector/vectorIndex';
import { VectorPage } from '../../../../../src/core/search/vector/vectorPage';
import { type Random, seededRandom } from '../../../../emulator/random';
import { cosine } from '../../../support/cosine';

/** Scores of the index come from float32 unit vectors; brute force works in doubles. */
const EPSILON = 1e-5;

function randomVector(random: Random, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) vector[i] = random() * 2 - 1;
  return vector;
}

/** The reference: every pair's cosine, fully sorted (best first, then by id). */
function bruteForce(model: Map<string, Float32Array>, query: Float32Array, k: number): VectorMatch[] {
  const all = [...model].map(([id, vector]) => ({ id, score: cosine(vector, query) }));
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, Math.max(0, k));
}

/**
 * `actual` equals `expected` up to rounding: same length, scores equal within EPSILON rank by rank,
 * and where the ids differ, the two are tied within EPSILON (float32 storage may swap near-ties).
 */
function assertSameResults(actual: VectorMatch[], expected: VectorMatch[], model: Map<string, Float32Array>, query: Float32Array, label: string): void {
  assert.equal(actual.length, expected.length, `${label}: number of results`);
  assert.equal(new Set(actual.map((m) => m.id)).size, actual.length, `${label}: duplicate ids`);
  for (let rank = 0; rank < actual.length; rank++) {
    const got = actual[rank];
    const want = expected[rank];
    const vector = model.get(got.id);
    assert.ok(vector, `${label}: returned ${got.id}, which is not stored`);
    assert.ok(Math.abs(got.score - want.score) <= EPSILON, `${label}: rank ${rank} score ${got.score}, expected ${want.score}`);
    assert.ok(Math.abs(cosine(vector, query) - got.score) <= EPSILON, `${label}: ${got.id}'s score ${got.score} is not its cosine`);
    if (got.id !== want.id) {
      assert.ok(Math.abs(cosine(vector, query) - want.score) <= EPSILON, `${label}: rank ${rank} is ${got.id}, expected ${want.id}`);
    }
  }
}

function assertWellFormed(results: VectorMatch[], label: string): void {
  for (let i = 0; i < results.length; i++) {
    const { score } = results[i];
    assert.ok(score >= -1 && score <= 1, `${label}: score ${score} outside [-1, 1]`);
    if (i > 0) {
      const previous = results[i - 1];
      assert.ok(previous.score > score || (previous.score === score && previous.id < results[i].id), `${label}: not sorted at ${i}`);
    }
  }
}

/** The float a 16-bit rounded value stands for: the value as the high half of a float32. */
function roundedValue(value: number): number {
  return new Float32Array(new Uint32Array([value << 16]).buffer)[0];
}

const aloneIndexes = [new WeakMap<Float32Array, VectorIndex>(), new WeakMap<Float32Array, VectorIndex>()];

/** An index holding only `vector` under `id`, made once per vector (each index takes memories of its own, which are slow to make by the thousand). */
function aloneIndex(id: string, vector: Float32Array, simd: boolean): VectorIndex {
  const made = aloneIndexes[simd ? 1 : 0];
  let alone = made.get(vector);
  if (!alone || !alone.has(id)) {
    alone = new VectorIndex(vector.length, { vectorsPerPage: 1, simd });
    alone.add(id, vector);
    made.set(vector, alone);
  }
  return alone;
}

/**
 * Every vector of `model` scored exactly against `query`, best first, then by id: each in an index
 * of its own, where the one vector always gets its exact float32 score (the same number wherever a
 * vector is stored), so this is the ranking the two-pass search must reproduce bit for bit.
 */
function exactRanking(model: Map<string, Float32Array>, query: Float32Array, k: number, simd: boolean): VectorMatch[] {
  const all = [...model].map(([id, vector]) => aloneIndex(id, vector, simd).search(query, 1)[0]);
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, k);
}

function fill(index: VectorIndex, model: Map<string, Float32Array>, random: Random, count: number, prefix = 'v'): void {
  for (let i = 0; i < count; i++) {
    const id = `${prefix}${i}`;
    const vector = randomVector(random, index.dimensions);
    index.add(id, vector);
    model.set(id, vector);
  }
}

describe('VectorIndex', () => {
  describe('search equals brute force', () => {
    for (const [dimensions, simd] of [
      [1, true],
      [3, true],
      [16, true],
      [33, true],
      [1024, true],
      [33, false],
      [1024, false],
    ] as const) {
      it(`on random data, ${dimensions} dimensions, across page boundaries${simd ? '' : ', plain loops'}`, () => {
        const random = seededRandom(1000 + dimensions);
        const sizes = dimensions > 100 ? [0, 5, 1025] : [0, 1, 3, 4, 5, 1023, 1024, 1025, 2100];
        for (const size of sizes) {
          const index = new VectorIndex(dimensions, { simd });
          const model = new Map<string, Float32Array>();
          fill(index, model, random, size);
          assert.equal(index.size, size);
          for (const k of [1, 4, 10, size, size + 3]) {
            for (let q = 0; q < 3; q++) {
              const query = randomVector(random, dimensions);
              const label = `d=${dimensions} size=${size} k=${k}`;
              const results = index.search(query, k);
              assertWellFormed(results, label);
              assertSameResults(results, bruteForce(model, query, k), model, query, label);
            }
          }
        }
      });
    }

    for (const simd of [true, false]) {
      it(`ranks near-ties exactly, closer together than the rounded first pass can tell apart${simd ? '' : ', plain loops'}`, () => {
        const random = seededRandom(77);
        const dimensions = 64;
        const index = new VectorIndex(dimensions, { vectorsPerPage: 100, simd });
        const model = new Map<string, Float32Array>();
        fill(index, model, random, 300, 'far');
        const base = randomVector(random, dimensions);
        const near = (spread: number) => base.map((x) => x + spread * (random() * 2 - 1));
        for (let i = 0; i < 400; i++) {
          const vector = near(1e-3);
          index.add(`near${i}`, vector);
          model.set(`near${i}`, vector);
        }
        for (let q = 0; q < 10; q++) {
          const query = near(1e-3);
          for (const k of [1, 10, 37]) {
            assert.deepEqual(index.search(query, k), exactRanking(model, query, k, simd), `query ${q}, k=${k}`);
          }
        }
      });
    }

    for (const simd of [true, false]) {
      it(`keeps the best vector when rounding moves it as far down as it can and a rival as far up${simd ? '' : ', plain loops'}`, () => {
        // 62 components near 0.125, where rounding to 8 significant bits moves a value by up to 2^-8
        // of it: A's all round down by almost that, 61 of B's round up by it, and B's last one is a
        // little lower, so exactly A scores 2^-18 × w more than B (w: each query component) while
        // its rounded score is 61 × 2^-10 × w ≈ 0.0076 lower, just under twice the rounding bound.
        // The last component sets the norm to 1 within float32 rounding, so adding them changes no bit.
        const dimensions = 64;
        const fromBits = (bits: number) => new Float32Array(new Uint32Array([bits]).buffer)[0];
        const unit = (designed: number[]) => {
          const vector = new Float32Array(dimensions);
          designed.forEach((bits, i) => (vector[i] = fromBits(bits)));
          const rest = 1 - designed.reduce((sum, _, i) => sum + vector[i] * vector[i], 0);
          vector[dimensions - 1] = Math.sqrt(rest);
          return vector;
        };
        const a = unit(new Array<number>(62).fill(0x3e007fff));
        const b = unit([...new Array<number>(61).fill(0x3e008000), 0x3e007fc2 - 256]);
        const query = new Float32Array(dimensions).fill(1, 0, 62);
        const random = seededRandom(78);
        const index = new VectorIndex(dimensions, { simd });
        const model = new Map<string, Float32Array>();
        fill(index, model, random, 50, 'far');
        index.add('A', a);
        index.add('B', b);
        model.set('A', a).set('B', b);
        const reference = exactRanking(model, query, 1, simd);
        assert.equal(reference[0].id, 'A', 'the construction: A scores best exactly');
        assert.deepEqual(index.search(query, 1), reference);
        assert.deepEqual(
          index.search(query, 2).map((m) => m.id),
          ['A', 'B'],
        );
      });
    }

    it('with small pages (many boundaries) and every k from 1 to the size', () => {
      const random = seededRandom(7);
      const index = new VectorIndex(24, { vectorsPerPage: 7 });
      const model = new Map<string, Float32Array>();
      fill(index, model, random, 59);
      for (let k = 1; k <= 60; k++) {
        const query = randomVector(random, 24);
        const results = index.search(query, k);
        assertWellFormed(results, `k=${k}`);
        assertSameResults(results, bruteForce(model, query, k), model, query, `k=${k}`);
      }
    });

    it('does not depend on the scale of vectors or query', () => {
      const random = seededRandom(8);
      const index = new VectorIndex(32);
      const model = new Map<string, Float32Array>();
      for (let i = 0; i < 300; i++) {
        const vector = randomVector(random, 32).map((x) => x * 10 ** (random() * 12 - 6));
        index.add(`s${i}`, vector);
        model.set(`s${i}`, vector);
      }
      const stored = model.get('s42');
      assert.ok(stored);
      const results = index.search(
        stored.map((x) => x * 1e-3),
        5,
      );
      assert.equal(results[0].id, 's42');
      assert.ok(Math.abs(results[0].score - 1) < EPSILON);
      const query = randomVector(random, 32).map((x) => x * 1e20);
      assertSameResults(index.search(query, 20), bruteForce(model, query, 20), model, query, 'scaled');
    });

    it('normalises vectors whose squares underflow, so they tie with their direction instead of outranking it', () => {
      const index = new VectorIndex(1);
      index.add('a', [1]);
      index.add('b', [2.3e-162]);
      index.add('c', [1e-170]);
      assert.deepEqual(index.search([1], 3), [
        { id: 'a', score: 1 },
        { id: 'b', score: 1 },
        { id: 'c', score: 1 },
      ]);
      assert.deepEqual(index.search([1e-170], 1), [{ id: 'a', score: 1 }]);
    });

    it('accepts plain number arrays', () => {
      const index = new VectorIndex(3);
      index.add('x', [1, 0, 0]);
      index.add('y', [0, 2, 0]);
      assert.deepEqual(index.search([0, 5, 0], 1), [{ id: 'y', score: 1 }]);
    });
  });

  describe('add, replace and remove', () => {
    it('replacing an id keeps the size and uses the new vector', () => {
      const index = new VectorIndex(3);
      index.add('a', new Float32Array([1, 0, 0]));
      index.add('b', new Float32Array([0, 1, 0]));
      index.add('a', new Float32Array([0, 0, 1]));
      assert.equal(index.size, 2);
      assert.deepEqual(index.search(new Float32Array([0, 0, 1]), 1), [{ id: 'a', score: 1 }]);
      assert.deepEqual(index.search(new Float32Array([1, 0, 0]), 2), [
        { id: 'a', score: 0 },
        { id: 'b', score: 0 },
      ]);
    });

    it('removal swaps the last vector in and keeps every other id right', () => {
      const index = new VectorIndex(4);
      const basis = (i: number) => new Float32Array([0, 1, 2, 3].map((j) => (j === i ? 1 : 0)));
      for (let i = 0; i < 4; i++) index.add(`e${i}`, basis(i));
      assert.equal(index.remove('e1'), true);
      assert.equal(index.remove('e1'), false);
      assert.equal(index.remove('never'), false);
      assert.equal(index.size, 3);
      assert.equal(index.has('e1'), false);
      for (const i of [0, 2, 3]) {
        assert.equal(index.has(`e${i}`), true);
        assert.deepEqual(index.search(basis(i), 1), [{ id: `e${i}`, score: 1 }]);
      }
      assert.ok(!index.search(basis(1), 10).some((m) => m.id === 'e1'));
    });

    it('a random sequence of adds, replaces and removes matches brute force', () => {
      const random = seededRandom(41);
      const dimensions = 20;
      const index = new VectorIndex(dimensions, { vectorsPerPage: 16 });
      const model = new Map<string, Float32Array>();
      const removed = new Set<string>();
      let next = 0;
      for (let step = 0; step < 1500; step++) {
        const action = random();
        const ids = [...model.keys()];
        if (action < 0.5 || ids.length === 0) {
          const id = `n${next++}`;
          const vector = randomVector(random, dimensions);
          index.add(id, vector);
          model.set(id, vector);
          removed.delete(id);
        } else if (action < 0.65) {
          const id = ids[Math.floor(random() * ids.length)];
          const vector = randomVector(random, dimensions);
          index.add(id, vector);
          model.set(id, vector);
        } else {
          // Favour the ends: the last slot (no swap) and the first (swap from far away).
          const pick = random();
          const id = pick < 0.2 ? ids[ids.length - 1] : pick < 0.4 ? ids[0] : ids[Math.floor(random() * ids.length)];
          assert.equal(index.remove(id), true);
          model.delete(id);
          removed.add(id);
        }
        assert.equal(index.size, model.size);
        if (step % 50 === 0 || step === 1499) {
          const query = randomVector(random, dimensions);
          const k = 1 + Math.floor(random() * 40);
          const results = index.search(query, k);
          assertSameResults(results, bruteForce(model, query, k), model, query, `step ${step}`);
          assert.ok(!results.some((m) => removed.has(m.id)), 'a removed id was returned');
          for (const [id, vector] of model) {
            assert.equal(index.search(vector, 1)[0].id, id, `${id} is not its own nearest`);
          }
        }
      }
    });

    it('releases pages after removals, keeping one spare', () => {
      const random = seededRandom(5);
      const index = new VectorIndex(8, { vectorsPerPage: 10 });
      const model = new Map<string, Float32Array>();
      fill(index, model, random, 95);
      // A page's memory holds its vectors and the scan's scratch, in whole WebAssembly pages.
      const pageBytes = index.allocatedBytes / 10;
      assert.ok(Number.isInteger(pageBytes) && pageBytes >= 10 * 8 * 4, `${pageBytes} bytes a page`);
      for (let i = 0; i < 80; i++) index.remove(`v${i}`);
      assert.equal(index.size, 15);
      assert.equal(index.allocatedBytes, 3 * pageBytes);
      for (let i = 0; i < 80; i++) model.delete(`v${i}`);
      const query = randomVector(random, 8);
      assertSameResults(index.search(query, 15), bruteForce(model, query, 15), model, query, 'after shrinking');
      fill(index, model, random, 30, 'w');
      assertSameResults(index.search(query, 45), bruteForce(model, query, 45), model, query, 'after growing again');
    });
  });

  describe('edge cases', () => {
    it('rejects bad dimensions in the constructor', () => {
      for (const dimensions of [0, -1, 1.5, Number.NaN]) {
        assert.throws(() => new VectorIndex(dimensions), /dimensions must be a positive integer/);
      }
    });

    it('throws a clear error for vectors and queries of the wrong length, leaving the index unchanged', () => {
      const index = new VectorIndex(4);
      index.add('a', new Float32Array([1, 2, 3, 4]));
      assert.throws(() => index.add('b', new Float32Array(3)), /the vector has 3 dimensions, the index has 4/);
      assert.throws(() => index.add('a', new Float32Array(5)), /the vector has 5 dimensions, the index has 4/);
      assert.throws(() => index.search(new Float32Array(2), 1), /the query has 2 dimensions, the index has 4/);
      assert.throws(() => index.search(new Float32Array(8), 0), /the query has 8 dimensions/);
      assert.equal(index.size, 1);
      assert.equal(index.has('b'), false);
      const results = index.search(new Float32Array([1, 2, 3, 4]), 5);
      assert.deepEqual(
        results.map((m) => m.id),
        ['a'],
      );
      assert.ok(Math.abs(results[0].score - 1) < EPSILON);
    });

    it('rejects components that are not finite numbers', () => {
      const index = new VectorIndex(3);
      assert.throws(() => index.add('a', new Float32Array([1, Number.NaN, 0])), /component 1 is NaN/);
      assert.throws(() => index.add('a', [1, 0, Number.POSITIVE_INFINITY]), /component 2 is Infinity/);
      assert.throws(() => index.search(new Float32Array([Number.NEGATIVE_INFINITY, 0, 0]), 1), /query's component 0/);
      assert.equal(index.size, 0);
    });

    it('returns nothing for k < 1, an empty index or a zero query', () => {
      const index = new VectorIndex(3);
      assert.deepEqual(index.search(new Float32Array([1, 0, 0]), 3), []);
      index.add('a', new Float32Array([1, 0, 0]));
      for (const k of [0, -1, -Infinity, Number.NaN, 0.5]) assert.deepEqual(index.search(new Float32Array([1, 0, 0]), k), []);
      assert.deepEqual(index.search(new Float32Array(3), 3), []);
      assert.equal(index.search(new Float32Array([1, 0, 0]), Infinity).length, 1);
      assert.equal(index.search(new Float32Array([1, 0, 0]), 2.7).length, 1);
    });

    it('keeps zero vectors, scoring 0 against any query', () => {
      const index = new VectorIndex(2);
      index.add('zero', new Float32Array(2));
      index.add('x', new Float32Array([1, 0]));
      index.add('-x', new Float32Array([-1, 0]));
      assert.deepEqual(index.search(new Float32Array([1, 0]), 3), [
        { id: 'x', score: 1 },
        { id: 'zero', score: 0 },
        { id: '-x', score: -1 },
      ]);
    });

    it('orders equal scores by id, whatever the insertion and removal order', () => {
      const random = seededRandom(3);
      const vector = randomVector(random, 16);
      const ids = ['m', 'b', 'z', 'a', 'k', 'c', 'q'];
      for (let round = 0; round < 5; round++) {
        const index = new VectorIndex(16, { vectorsPerPage: 3 });
        const shuffled = [...ids].sort(() => random() - 0.5);
        for (const id of shuffled) index.add(id, vector);
        for (let i = 0; i < 10; i++) index.add(`other${i}`, randomVector(random, 16));
        index.remove(shuffled[0]);
        const expected = ids.filter((id) => id !== shuffled[0]).sort();
        for (const k of [1, 3, 6]) {
          const results = index.search(vector, k);
          assert.deepEqual(
            results.map((m) => m.id),
            expected.slice(0, k),
          );
          assert.ok(results.every((m) => m.score === results[0].score));
        }
      }
    });

    it('scores are clamped to [-1, 1]', () => {
      const random = seededRandom(11);
      const index = new VectorIndex(777);
      for (let i = 0; i < 50; i++) {
        const vector = randomVector(random, 777);
        index.add(`p${i}`, vector);
        index.add(
          `n${i}`,
          vector.map((x) => -x),
        );
        for (const m of index.search(vector, 200)) assert.ok(m.score >= -1 && m.score <= 1);
      }
    });
  });

  describe('storage pages', () => {
    it('uses the WebAssembly SIMD kernels here, which agree with the plain loops', () => {
      const random = seededRandom(21);
      for (const dimensions of [1, 31, 32, 100, 1024]) {
        const capacity = 37;
        const shape = { dimensions, capacity };
        const simd = new VectorPage(shape);
        const plain = new VectorPage({ ...shape, simd: false });
        assert.equal(simd.simd, true, 'WebAssembly SIMD is unavailable: the fast path is not tested');
        assert.equal(plain.simd, false);
        const stride = simd.floatStride;
        const vectors: Float32Array[] = [];
        for (let v = 0; v < capacity; v++) {
          const values = new Float32Array(stride);
          for (let i = 0; i < dimensions; i++) values[i] = random() * 2 - 1;
          simd.write(v, values, v);
          plain.write(v, values, v);
          vectors.push(values);
        }
        for (let i = 0; i < dimensions; i++) simd.query[i] = plain.query[i] = random() * 2 - 1;
        const label = `d=${dimensions}`;
        const roundedDots = Array.from(simd.firstPass(capacity).subarray(0, capacity));
        const plainRounded = Array.from(plain.firstPass(capacity).subarray(0, capacity));
        const tolerance = EPSILON * Math.sqrt(dimensions);
        vectors.forEach((values, v) => {
          let exact = 0;
          let magnitude = 0;
          let rounded = 0;
          for (let i = 0; i < dimensions; i++) {
            exact += values[i] * simd.query[i];
            magnitude += Math.abs(values[i] * simd.query[i]);
            rounded += roundedValue(simd.rounded[v * stride + i]) * simd.query[i];
          }
          assert.ok(Math.abs(roundedDots[v] - rounded) <= tolerance, `${label}: rounded, vector ${v}: ${roundedDots[v]}, expected ${rounded}`);
          assert.ok(Math.abs(plainRounded[v] - rounded) <= tolerance, `${label}: plain rounded, vector ${v}`);
          assert.ok(Math.abs(rounded - exact) <= 2 ** -8 * magnitude, `${label}: vector ${v} rounded by more than 2^-8`);
          simd.whole.set(values);
          plain.whole.set(values);
          const whole = simd.wholeDot();
          assert.ok(Math.abs(whole - exact) <= tolerance, `${label}: vector ${v}: ${whole}, expected ${exact}`);
          assert.ok(Math.abs(plain.wholeDot() - exact) <= tolerance, `${label}: plain, vector ${v}`);
          // The same number every time, even after other scans (re-ranking relies on it).
          simd.firstPass(capacity);
          assert.equal(simd.wholeDot(), whole, `${label}: vector ${v} again`);
          assert.ok(simd.matches(v, values.subarray(0, dimensions)), `${label}: vector ${v} matches its halves`);
        });
      }
    });

    it('rounds each component to its nearest bfloat16 and knows a row that is not its own', () => {
      // Values whose low half rounds up (carrying into the exponent), down, signs, a subnormal, ±1.
      const bits = [0x3f80ffff, 0x3f7fffff, 0xbf7f8000, 0x3f808000, 0xbe4ccccd, 0x00000001, 0x807fffff, 0x3f800000, 0xbf800000, 0x3c23d70a];
      const rounded = [0x3f81, 0x3f80, 0xbf80, 0x3f81, 0xbe4d, 0x0000, 0x8080, 0x3f80, 0xbf80, 0x3c24];
      for (const simd of [true, false]) {
        const page = new VectorPage({ dimensions: bits.length, capacity: 2, simd });
        const values = new Float32Array(page.floatStride);
        new Uint32Array(values.buffer).set(bits);
        page.write(1, values, 7);
        assert.deepEqual(Array.from(page.rounded.subarray(page.floatStride, page.floatStride + bits.length)), rounded);
        assert.equal(page.rows[1], 7);
        assert.ok(page.matches(1, values.subarray(0, bits.length)));
        values[4] = -values[4];
        assert.ok(!page.matches(1, values.subarray(0, bits.length)), 'a row with one component changed is not this vector');
      }
    });
  });
});
