import * as assert from 'node:assert/strict';
import { completeAt, type CompletionRequest } from '../../../../src/core/completion/completeAt';
import { Suggester, type Ask } from '../../../../src/core/completion/suggester';
import { useEmulator } from '../../support/fixture';

/** The place `|` marks in `code`. */
function place(code: string, explicit = true) {
  const offset = code.indexOf('|');
  return { prefix: code.slice(0, offset), suffix: code.slice(offset + 1), explicit, debounceMs: 50 };
}

function requestAt(site: { prefix: string; suffix: string }): () => Promise<CompletionRequest> {
  return () =>
    Promise.resolve({
      model: 'GigaChat-2',
      path: 'src/total.ts',
      languageId: 'typescript',
      text: site.prefix + site.suffix,
      offset: site.prefix.length,
      multiline: false,
      budgetChars: 4000,
      maxTokens: 48,
      indent: '  ',
    });
}

describe('suggestions while typing: asked only when needed, stale requests aborted (the emulator answers)', () => {
  const t = useEmulator({ streamDelayMs: 5 });
  const chats = () => t.emulator.requests.filter((r) => r.endpoint === 'chat');
  /** What the request out has streamed so far, cleaned. */
  let streamed = '';
  const ask: Ask = (request, options) =>
    completeAt(t.client, request, {
      ...options,
      onPartial: (text) => {
        streamed = text;
        options.onPartial(text);
      },
    });
  const outcomes: string[] = [];
  let suggester: Suggester;
  beforeEach(() => {
    outcomes.length = 0;
    streamed = '';
    suggester = new Suggester({ settled: (outcome) => outcomes.push(outcome) });
  });
  afterEach(() => t.emulator.setOptions({ latencyMs: 0 }));

  function suggest(code: string, options: { explicit?: boolean; cancel?: AbortSignal } = {}) {
    const site = place(code, options.explicit ?? true);
    return suggester.suggest(site, requestAt(site), ask, options.cancel ?? new AbortController().signal);
  }

  async function untilSent(count: number): Promise<void> {
    while (chats().length < count) await new Promise((resolve) => setTimeout(resolve, 2));
  }

  it('a place already asked, and a suggestion being typed, are answered without a request', async () => {
    assert.equal(await suggest('const total = |\n'), 'computeTotal();');
    assert.equal(await suggest('const total = |\n'), 'computeTotal();');
    assert.equal(await suggest('const total = comp|\n'), 'uteTotal();');
    assert.equal(chats().length, 1);
  });

  it('typing on while a request is out waits for it, and gets the rest of its suggestion: one request', async () => {
    t.emulator.setOptions({ latencyMs: 150 });
    const first = suggest('const total = |\n');
    await untilSent(1);
    while (streamed === '') await new Promise((resolve) => setTimeout(resolve, 2));
    const typedOn = suggest('const total = co|\n', { explicit: false });
    assert.equal(await typedOn, 'mputeTotal();');
    assert.equal(await first, 'computeTotal();');
    assert.equal(chats().length, 1);
    assert.deepEqual(outcomes, ['answered']);
  });

  it("typing on before anything streamed aborts the request (it would hold the account's stream for a place left) and asks anew", async () => {
    t.emulator.setOptions({ latencyMs: 150 });
    const first = suggest('const total = |\n');
    await untilSent(1);
    const typedOn = suggest('const total = co|\n', { explicit: false });
    assert.equal(await first, '', 'nothing had streamed: the request went');
    assert.equal(outcomes[0], 'aborted');
    await typedOn;
    assert.deepEqual(outcomes, ['aborted', 'answered'], 'the new place is asked and answered');
    assert.equal(chats().length, 2);
  });

  it('typing what the suggestion cannot begin with aborts the request as soon as its text shows it, and asks anew', async () => {
    t.emulator.setOptions({ latencyMs: 100 });
    const first = suggest('const total = |\n');
    await untilSent(1);
    const typedOn = suggest('const total = x|\n', { explicit: false });
    assert.equal(await first, '', 'the stale request shows nothing');
    await typedOn;
    assert.equal(outcomes[0], 'aborted');
    assert.equal(chats().length, 2, 'the new place is asked');
    for (let i = 0; i < 500 && !chats()[0].abandoned; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(chats()[0].abandoned, true, 'its connection is closed: the service stops writing it');
  });

  it('an edit reaches a request still out without another call (VS Code calls again only once a call has ended)', async () => {
    t.emulator.setOptions({ latencyMs: 100 });
    const typedPast = suggest('const total = |\n');
    await untilSent(1);
    suggester.edited(place('const total = x|\n'));
    assert.equal(await typedPast, '', 'stale once its text showed');
    const deleted = suggest('let count = |\n');
    await untilSent(2);
    suggester.edited(place('let count =|\n'));
    assert.equal(await deleted, '');
    assert.deepEqual(outcomes, ['aborted', 'aborted']);
  });

  it('a place the request out does not lead to (a deletion, another line) aborts it at once', async () => {
    t.emulator.setOptions({ latencyMs: 300 });
    const first = suggest('const total = |\n');
    await untilSent(1);
    const elsewhere = new AbortController();
    const moved = suggest('const tota|\n', { explicit: false, cancel: elsewhere.signal });
    assert.equal(await first, '');
    assert.deepEqual(outcomes, ['aborted']);
    elsewhere.abort();
    assert.equal(await moved, '');
  });

  it('who types on past suggestions waits longer for the next one, until a suggestion is shown again', async () => {
    t.emulator.setOptions({ latencyMs: 100 });
    const first = suggest('const total = |\n');
    await untilSent(1);
    void suggest('const total = x|\n', { explicit: false, cancel: AbortSignal.abort() });
    assert.equal(await first, '');
    // The next keystroke 120 ms into a pause: past the usual 50 ms, within the longer one.
    const typedSoon = new AbortController();
    const soon = suggest('let price = |\n', { explicit: false, cancel: typedSoon.signal });
    setTimeout(() => typedSoon.abort(), 120);
    assert.equal(await soon, '');
    assert.equal(chats().length, 1, 'nothing asked within the longer pause');
    t.emulator.setOptions({ latencyMs: 0 });
    assert.equal(await suggest('let price = |\n'), 'computePrice();', 'Alt+\\ asks at once, and its suggestion is shown');
    const typedLater = new AbortController();
    const later = suggest('let cost = |\n', { explicit: false, cancel: typedLater.signal });
    setTimeout(() => typedLater.abort(), 120);
    await later;
    assert.equal(chats().length, 3, 'the usual pause again once a suggestion was shown');
  });

  it('waits for a pause in typing: a keystroke during it sends nothing; Alt+\\ asks at once', async () => {
    const typing = new AbortController();
    const waiting = suggest('let count = |\n', { explicit: false, cancel: typing.signal });
    typing.abort();
    assert.equal(await waiting, '');
    assert.equal(chats().length, 0, 'nothing was sent for a keystroke the next one superseded');
    assert.equal(await suggest('let count = |\n', { explicit: false }), 'computeCount();');
    assert.equal(chats().length, 1);
  });
});
