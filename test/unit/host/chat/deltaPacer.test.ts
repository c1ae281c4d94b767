import * as assert from 'node:assert/strict';
import { DEFAULT_PACING, DeltaPacer } from '../../../../src/host/chat/deltaPacer';
import { ManualClock } from '../../support/manualClock';
import { pacedStream as stream } from '../../support/pacedStream';

describe('DeltaPacer', () => {
  const reply = 'Ответ модели, строка за строкой.\n'.repeat(600); // ~20,000 characters

  it('delivers every character once, in order, including the end after the model stops', () => {
    for (const speed of [50, 300, 3000]) {
      const { deltas, clock } = stream(reply, speed, 7);
      assert.equal(deltas.join(''), reply, `${speed} chars/s`);
      assert.ok(
        deltas.every((d) => d.length > 0),
        'no empty delta',
      );
      assert.equal(clock.pending, 0, 'no timer left behind');
    }
  });

  it('starts at frame pace, then sends fewer, larger deltas as the reply grows', () => {
    const { deltas } = stream(reply, 300, 10);
    // The first text shows at once, and the start keeps a frame-like pace.
    assert.equal(deltas[0].length, 10);
    assert.ok(
      deltas.slice(0, 20).every((d) => d.length <= 20),
      `first deltas: ${deltas
        .slice(0, 20)
        .map((d) => d.length)
        .join(',')}`,
    );
    // Far fewer messages than a fixed 32 ms pace (one per 10 characters here), growing pieces.
    assert.ok(deltas.length < 200, `${deltas.length} deltas`);
    const late = deltas.slice(-10).reduce((sum, d) => sum + d.length, 0) / 10;
    assert.ok(late > 100, `late deltas average ${late} characters`);
  });

  it('never sends two deltas closer than the minimum interval, nor holds text longer than the maximum', () => {
    const clock = new ManualClock();
    const sentAt: number[] = [];
    let length = 0;
    const pacer = new DeltaPacer(
      () => {
        sentAt.push(clock.now());
        return length;
      },
      DEFAULT_PACING,
      clock,
    );
    for (let i = 0; i < 400; i++) {
      clock.advance(i % 50 === 0 ? 900 : 5); // bursts, and pauses
      length += i < 200 ? 40 : 1;
      pacer.offer(length);
    }
    clock.advance(DEFAULT_PACING.maxIntervalMs);
    for (let i = 1; i < sentAt.length; i++) {
      assert.ok(sentAt[i] - sentAt[i - 1] >= DEFAULT_PACING.minIntervalMs, `deltas ${i - 1} and ${i} ${sentAt[i] - sentAt[i - 1]} ms apart`);
    }
    // A trickle (1 character per 5 ms, far below the share) still goes out at least every second.
    const trickle = sentAt.filter((at) => at > sentAt[0] + 200 * 5 + 900 * 4);
    for (let i = 1; i < trickle.length; i++) {
      assert.ok(trickle[i] - trickle[i - 1] <= DEFAULT_PACING.maxIntervalMs + 900, 'text waited too long');
    }
  });

  it('cancel drops the pending delta', () => {
    const clock = new ManualClock();
    let sends = 0;
    const pacer = new DeltaPacer(
      () => {
        sends++;
        return 100;
      },
      DEFAULT_PACING,
      clock,
    );
    pacer.offer(100);
    assert.equal(sends, 1);
    clock.advance(1);
    pacer.offer(101); // too little, too soon: waits for a timer
    assert.equal(clock.pending, 1);
    pacer.cancel();
    clock.advance(5000);
    assert.equal(sends, 1);
  });
});
