// The queue of injected faults. Rules are checked first-in first-out; the first rule that matches
// a request is used for it and loses one of its `times`, so tests can script sequences such as
// "first call 429, second call fine" by injecting two rules or one with times: 1.
import type { Fault, FaultRule, RecordedRequest } from './types';

interface ActiveRule {
  fault: Fault;
  endpoint: FaultRule['endpoint'];
  match: FaultRule['match'];
  remaining: number;
}

export class FaultQueue {
  private rules: ActiveRule[] = [];

  add(fault: Fault, rule: FaultRule = {}): void {
    const times = rule.times ?? 1;
    if (!(times > 0)) throw new Error(`times must be positive, got ${times}`);
    this.rules.push({ fault, endpoint: rule.endpoint, match: rule.match, remaining: times });
  }

  /** The fault for this request, if any; consumes one use of the matching rule. */
  take(request: RecordedRequest): Fault | undefined {
    const index = this.rules.findIndex((rule) => (rule.endpoint === undefined || rule.endpoint === request.endpoint) && (rule.match?.(request) ?? true));
    if (index < 0) return undefined;
    const rule = this.rules[index];
    rule.remaining -= 1; // Infinity - 1 stays Infinity, so "always" rules never run out.
    if (rule.remaining <= 0) this.rules.splice(index, 1);
    return rule.fault;
  }

  clear(): void {
    this.rules = [];
  }
}
