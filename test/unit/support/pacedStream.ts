import { DEFAULT_PACING, DeltaPacer, type PacingRule } from '../../../src/host/chat/deltaPacer';
import { ManualClock } from './manualClock';

/**
 * The deltas the chat view gets from the host's pacer while a model writes `text` at
 * `charsPerSecond` in pieces of `piece` characters (simulated time: returns at once).
 */
export function pacedStream(text: string, charsPerSecond: number, piece: number, rule: PacingRule = DEFAULT_PACING): { deltas: string[]; clock: ManualClock } {
  const clock = new ManualClock();
  const deltas: string[] = [];
  let received = '';
  let shown = 0;
  const pacer = new DeltaPacer(
    () => {
      deltas.push(received.slice(shown));
      shown = received.length;
      return shown;
    },
    rule,
    clock,
  );
  for (let at = 0; at < text.length; at += piece) {
    clock.advance((piece / charsPerSecond) * 1000);
    received = text.slice(0, at + piece);
    pacer.offer(received.length);
  }
  clock.advance(rule.maxIntervalMs); // the model stops; what waits still goes out
  return { deltas, clock };
}
