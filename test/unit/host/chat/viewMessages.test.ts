import * as assert from 'node:assert/strict';
import { parseViewMessage, shapeOf } from '../../../../src/host/chat/viewMessages';
import { seededRandom } from '../../support/random';

/** Marks values that must never reach the log. */
const SECRET = 'SECRET-sk-4f9a2c';

/** Messages a buggy or compromised chat view could send: none may be acted on. */
const CORPUS: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a number', 42],
  ['a bare string', `send ${SECRET}`],
  ['an array', ['send', SECRET]],
  ['an empty object', {}],
  ['an unknown type', { type: 'deleteEverything', text: SECRET }],
  ['a type that is not a string', { type: 7, text: SECRET }],
  ['a type with the right name in another case', { type: 'SEND', text: SECRET }],
  ['send without text', { type: 'send' }],
  ['send with empty text', { type: 'send', text: '' }],
  ['send with text that is not a string', { type: 'send', text: { toString: SECRET } }],
  ['send with a huge text', { type: 'send', text: `${SECRET}${'x'.repeat(3_000_000)}` }],
  ['a huge type', { type: `${SECRET}${'y'.repeat(1_000_000)}` }],
  ['a __proto__ key (as JSON.parse makes it)', JSON.parse(`{"__proto__": {"type": "send", "text": "${SECRET}"}}`)],
  ['openConversation with an empty id', { type: 'openConversation', conversationId: '' }],
  ['deleteConversation with a huge id', { type: 'deleteConversation', conversationId: SECRET.repeat(100) }],
  ['an error action that does not exist', { type: 'errorAction', action: `rm -rf ${SECRET}` }],
  ['selectModel with a number', { type: 'selectModel', model: 12 }],
  ['openLink with a huge href', { type: 'openLink', href: `https://${SECRET}.example/${'a'.repeat(5000)}` }],
  ['copyCode with a language that is too long', { type: 'copyCode', code: SECRET, language: SECRET.repeat(10) }],
  ['draft with an array', { type: 'draft', text: [SECRET] }],
  ['saveImage with a nested object', { type: 'saveImage', fileId: { id: SECRET } }],
  ['openImage with a file id that climbs out of the pictures folder', { type: 'openImage', fileId: `../../../${SECRET}` }],
  ['saveImage with a file id that is a path', { type: 'saveImage', fileId: `/home/${SECRET}` }],
  ['many keys with secret names', Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`${SECRET}-${i}`, SECRET]))],
  ['a key of control characters', { type: 'send', ['\u0000\u202e' + SECRET]: 1 }],
];

/** Every value in these messages that is not protocol vocabulary carries SECRET, so one check covers them all. */
function assertSafeLogLine(line: string): void {
  assert.match(line, /^Dropped a malformed message from the chat view: /);
  assert.ok(line.length <= 400, `${line.length} characters`);
  assert.ok(!line.includes(SECRET), `the log line shows a value: ${line}`);
}

describe('messages from the chat view', () => {
  for (const [name, raw] of CORPUS) {
    it(`drops ${name}, with a short log line that shows no value`, () => {
      const parsed = parseViewMessage(raw);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assertSafeLogLine(parsed.logLine);
    });
  }

  it('says what was wrong: the shape and the first problems', () => {
    const parsed = parseViewMessage({ type: 'send', text: 'x'.repeat(200_001) });
    assert.ok(!parsed.ok);
    assert.match(parsed.logLine, /\{type: "send", text: string\(200001 chars\)\}/);
    assert.match(parsed.logLine, /text: Too big/);
  });

  it('describes shapes without values', () => {
    assert.equal(
      shapeOf({ type: 'send', text: 'hello', n: 1, list: [1, 2], nested: { a: 1 }, nothing: null }),
      '{type: "send", text: string(5 chars), n: number, list: array(2 items), nested: object, nothing: null}',
    );
    assert.equal(shapeOf({ type: 'two words' }), '{type: string(9 chars)}');
    assert.equal(shapeOf(undefined), 'undefined');
  });

  it('accepts every well-formed message, and strips keys the protocol does not know', () => {
    const valid = [
      { type: 'ready' },
      { type: 'send', text: 'Привет' },
      { type: 'stop' },
      { type: 'errorAction', action: 'proxySettings' },
      { type: 'openConversation', conversationId: 'c1' },
      { type: 'copyCode', code: 'let a = 1;', language: 'ts' },
      { type: 'openImage', fileId: '3f2a9c1e-77b0-4c1d-9a52-0d6f1c2b8e41' },
      // A long draft (a pasted log) is kept like a long message, not dropped as malformed.
      { type: 'draft', text: 'x'.repeat(150_000) },
    ];
    for (const message of valid) assert.deepEqual(parseViewMessage(message), { ok: true, message });
    assert.deepEqual(parseViewMessage({ type: 'stop', injected: SECRET }), { ok: true, message: { type: 'stop' } });
  });

  it('drops random messages built from the protocol vocabulary, never throwing, never showing a value (seeded)', () => {
    const seed = 20_250_601;
    const random = seededRandom(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    const types = ['ready', 'send', 'stop', 'openConversation', 'errorAction', 'openLink', 'draft', 'selectModel', 'bogus', ''];
    const keys = ['type', 'text', 'conversationId', 'action', 'href', 'model', 'code', 'fileId', '__proto__', 'constructor'];
    const value = (depth: number): unknown => {
      switch (Math.floor(random() * (depth > 2 ? 5 : 7))) {
        case 0:
          return `${SECRET}-${Math.floor(random() * 1e6)}`;
        case 1:
          return Math.floor(random() * 1000) - 500;
        case 2:
          return random() < 0.5;
        case 3:
          return null;
        case 4:
          return pick(types);
        case 5:
          return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
        default:
          return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(keys), value(depth + 1)]));
      }
    };
    let dropped = 0;
    for (let i = 0; i < 2_000; i++) {
      const raw = random() < 0.7 ? { type: pick(types), [pick(keys)]: value(0), [pick(keys)]: value(0) } : value(0);
      const parsed = parseViewMessage(raw);
      if (parsed.ok) continue; // e.g. {type: 'stop', text: …}: valid once the unknown key is stripped
      dropped += 1;
      assert.doesNotThrow(() => assertSafeLogLine(parsed.logLine), `seed ${seed}, message ${i}: ${parsed.logLine}`);
    }
    assert.ok(dropped > 1_000, `only ${dropped} of 2000 random messages were malformed`);
  });
});
