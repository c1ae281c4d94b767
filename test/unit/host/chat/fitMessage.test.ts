import * as assert from 'node:assert/strict';
import { fitHostMessage } from '../../../../src/host/chat/fitMessage';
import { HostMessage, LIMITS, PICTURE_MARKER, type ImageAttachment, type Turn } from '../../../../src/shared/protocol';
import { seededRandom } from '../../support/random';

type State = Extract<HostMessage, { type: 'state' }>;

function state(overrides: Partial<State> = {}): State {
  return {
    type: 'state',
    hasKey: true,
    conversationId: '7d1c9a40-52a2-4c4b-9d0c-0b8f51c2f5e3',
    turns: [],
    earlierTurns: 0,
    earlierQuestions: [],
    busy: false,
    models: ['GigaChat', 'GigaChat-2-Max'],
    model: 'GigaChat',
    draft: '',
    attachments: [],
    ...overrides,
  };
}

const reply = (content: string, extra: Partial<Turn> = {}): Turn => ({ id: 'a1', role: 'assistant', content, status: 'done', ...extra });
const picture = (index: number): ImageAttachment => ({
  fileId: `picture-${index}`,
  src: `https://file%2B.vscode-resource.vscode-cdn.net/storage/images/picture-${index}.jpg`,
});

/** Fits the message and proves the view accepts what comes out, with the view's own schema. */
function fit(message: HostMessage): { message: HostMessage; notes: string[] } {
  const fitted = fitHostMessage(message);
  const parsed = HostMessage.safeParse(fitted.message);
  assert.ok(parsed.success, `the view refuses the fitted message: ${JSON.stringify(parsed.error?.issues.slice(0, 3))}`);
  return fitted;
}

function fitState(overrides: Partial<State>): { message: State; notes: string[] } {
  const fitted = fit(state(overrides));
  assert.equal(fitted.message.type, 'state');
  return fitted as { message: State; notes: string[] };
}

describe('messages to the chat view, fitted to what it accepts', () => {
  it('a state of 2,002 turns keeps the newest 2,000 and counts the rest as earlier turns, which the view asks for', () => {
    const turns = Array.from({ length: 2_002 }, (_, i) => reply(`reply ${i}`, { id: `t${i}` }));
    const { message, notes } = fitState({ turns, earlierTurns: 5 });
    assert.equal(message.turns.length, LIMITS.turnsPerMessage);
    assert.equal(message.turns[0].id, 't2');
    assert.equal(message.turns.at(-1)?.id, 't2001');
    assert.equal(message.earlierTurns, 7);
    assert.equal(notes.length, 1);
  });

  it('a reply of 2,000,001 characters is shown cut, saying how long it is, in the state and as an update', () => {
    const long = `${'a'.repeat(LIMITS.text - 1)}😀`;
    assert.equal(long.length, 2_000_001);
    for (const message of [state({ turns: [reply(long)] }), { type: 'turnUpdated', turn: reply(long) } as const]) {
      const fitted = fit(message);
      const turn = fitted.message.type === 'state' ? fitted.message.turns[0] : (fitted.message as Extract<HostMessage, { type: 'turnUpdated' }>).turn;
      // The emoji's two halves straddle the limit: neither is kept, so no broken character shows.
      assert.equal(turn.content, 'a'.repeat(LIMITS.text - 1));
      assert.equal(turn.fullLength, long.length);
      assert.match(fitted.notes.join('\n'), /a turn of 2000001 characters is shown cut/);
    }
  });

  it('fitting a fitted message changes nothing (a cut reply keeps its whole length), and a message that fits is left alone', () => {
    const once = fit(state({ turns: [reply('x'.repeat(LIMITS.text + 10))] })).message;
    const twice = fit(once);
    assert.deepEqual(twice.message, once);
    assert.deepEqual(twice.notes, []);
    const ordinary = state({ turns: [reply('**Hi**', { images: [picture(1)], usage: { promptTokens: 1, completionTokens: 2, totalTokens: 3 } })], draftAt: 5 });
    assert.deepEqual(fit(ordinary), { message: ordinary, notes: [] });
  });

  it('a streamed piece longer than a text may be is cut, not refused', () => {
    const { message } = fit({ type: 'delta', turnId: 'a1', text: 'b'.repeat(LIMITS.text + 1) });
    assert.equal((message as { text: string }).text.length, LIMITS.text);
  });

  it('a picture given as 15 MB of data, or at an address the view cannot load, is offered to open instead', () => {
    const dataUri = { fileId: 'big', src: `data:image/jpeg;base64,${'A'.repeat(15 * 1024 * 1024)}` } as ImageAttachment;
    const longAddress = { fileId: 'deep', src: `https://file%2B.vscode-resource.vscode-cdn.net/${'d/'.repeat(LIMITS.imageSource)}x.jpg` };
    const { message } = fitState({ turns: [reply(`${PICTURE_MARKER} and ${PICTURE_MARKER}`, { images: [dataUri, longAddress] })] });
    assert.deepEqual(message.turns[0].images, [
      { fileId: 'big', unavailable: 'cannotLoad' },
      { fileId: 'deep', unavailable: 'cannotLoad' },
    ]);
    assert.equal(message.turns[0].content, `${PICTURE_MARKER} and ${PICTURE_MARKER}`, 'each keeps its place');
  });

  it("a picture chip keeps its thumbnail's address; one given as data is offered as a chip without a thumbnail", () => {
    const thumbnail = { fileId: 'p1', src: 'https://file%2B.vscode-resource.vscode-cdn.net/images/p1.png' };
    const dataUri = { fileId: 'p2', src: `data:image/png;base64,${'A'.repeat(100)}` } as ImageAttachment;
    const { message } = fitState({
      attachments: [
        { id: 'p1', label: 'shot.png', title: 'shot.png, 1 KB', picture: thumbnail },
        { id: 'p2', label: 'data.png', title: 'data.png, 1 KB', picture: dataUri },
      ],
    });
    assert.deepEqual(
      message.attachments.map((chip) => chip.picture),
      [thumbnail, { fileId: 'p2', unavailable: 'cannotLoad' }],
    );
  });

  it('17 pictures in one reply: the first 16 are shown, the reply says one more, and the 17th marker goes', () => {
    const content = Array.from({ length: 17 }, (_, i) => `picture ${i}: ${PICTURE_MARKER}`).join('\n');
    const { message, notes } = fitState({ turns: [reply(content, { images: Array.from({ length: 17 }, (_, i) => picture(i)) })] });
    const [turn] = message.turns;
    assert.equal(turn.images?.length, LIMITS.imagesPerTurn);
    assert.equal(turn.images?.at(-1)?.fileId, 'picture-15');
    assert.equal(turn.moreImages, 1);
    assert.equal(turn.content.split(PICTURE_MARKER).length - 1, 16);
    assert.ok(turn.content.endsWith('picture 16: '));
    assert.equal(notes.length, 1);
  });

  it('a picture without a usable file id is left out with its marker, so the next one keeps its place', () => {
    const { message } = fitState({
      turns: [reply(`one ${PICTURE_MARKER} two ${PICTURE_MARKER}`, { images: [{ fileId: '../../etc/passwd', src: 'https://x.example/a.jpg' }, picture(2)] })],
    });
    assert.equal(message.turns[0].content, `one  two ${PICTURE_MARKER}`);
    assert.deepEqual(message.turns[0].images, [picture(2)]);
  });

  it('a request id of 201 characters is left out of the view (a cut one would name another request); a huge error message is cut', () => {
    const error = {
      kind: 'server',
      message: 'Ошибка. '.repeat(100_000),
      actions: ['retry', 'openLogs', 'launchMissiles'],
      requestId: 'r'.repeat(201),
    } as Turn['error'];
    const { message, notes } = fitState({ turns: [reply('', { status: 'error', error })] });
    const fitted = message.turns[0].error!;
    assert.equal(fitted.requestId, undefined);
    assert.equal(fitted.message.length, LIMITS.errorMessage);
    assert.ok(fitted.message.endsWith('…'));
    assert.deepEqual(fitted.actions, ['retry', 'openLogs']);
    assert.ok(notes.some((note) => /request id of 201 characters is not shown/.test(note)));
  });

  it('101 models: the picker gets 100, always with the selected one, and names over 100 characters are left out', () => {
    const models = Array.from({ length: 101 }, (_, i) => `GigaChat-${i}`);
    let fitted = fitState({ models, model: 'GigaChat-100' }).message;
    assert.equal(fitted.models.length, LIMITS.models);
    assert.ok(fitted.models.includes('GigaChat-100'), 'the selected model is kept');
    const longName = `GigaChat-${'x'.repeat(100)}`;
    fitted = fitState({ models: [longName, 'GigaChat'], model: 'GigaChat' }).message;
    assert.deepEqual(fitted.models, ['GigaChat']);
    const models2 = fit({ type: 'models', models: [...models, longName], model: longName }).message as { models: string[]; model: string };
    assert.equal(models2.model.length, LIMITS.modelName, 'a selected model named too long shows its beginning');
    assert.equal(models2.models.length, LIMITS.models);
    assert.ok(models2.models.includes(models2.model));
  });

  it('long titles, labels, notices, drafts and questions, and ids, are fitted; a chat that could not be opened by its id is left out of the history', () => {
    const long = (n: number) => 'ж'.repeat(n);
    const { message } = fitState({
      conversationId: 'c'.repeat(300),
      turns: [
        { id: 'u'.repeat(201), role: 'user', content: 'q', status: 'done', contextLabel: long(1_000), notice: long(1_000) },
        reply('a', { finishReason: long(50) }),
      ],
      draft: long(LIMITS.draft + 1),
      earlierQuestions: [long(LIMITS.draft + 1), ...Array.from({ length: 60 }, (_, i) => `question ${i}`)],
      attachments: Array.from({ length: 20 }, (_, i) => ({ id: `chip${i}`, label: long(400), title: long(2_000) })),
    });
    assert.equal(message.conversationId.length, LIMITS.id);
    assert.equal(message.turns[0].id.length, LIMITS.id);
    assert.equal(message.turns[0].contextLabel?.length, LIMITS.contextLabel);
    assert.equal(message.draft.length, LIMITS.draft);
    assert.deepEqual(
      message.earlierQuestions,
      Array.from({ length: 50 }, (_, i) => `question ${i + 10}`),
    );
    assert.equal(message.attachments.length, 18, 'eight pieces of code and ten files at most');

    const history = fit({
      type: 'history',
      conversations: [
        { id: 'c1', title: long(500), updatedAt: 1 },
        { id: '', title: 'no id', updatedAt: 2 },
        { id: 'x'.repeat(201), title: 'an id too long to open', updatedAt: Number.NaN },
        ...Array.from({ length: 1_100 }, (_, i) => ({ id: `h${i}`, title: `chat ${i}`, updatedAt: i })),
      ],
    }).message as Extract<HostMessage, { type: 'history' }>;
    assert.equal(history.conversations[0].title.length, LIMITS.title);
    assert.ok(!history.conversations.some((entry) => entry.title === 'no id' || entry.title === 'an id too long to open'));
    assert.equal(history.conversations.length, LIMITS.conversations);
  });

  it('an Explain question keeps what it explains; one whose code the view would refuse shows its prompt instead, as older ones do', () => {
    const explained = { file: 'src/retry.ts', first: 2, last: 4, language: 'typescript', code: 'for (;;) {}' };
    const question = (code: string): Turn => ({ id: 'u1', role: 'user', content: 'Explain this code…', status: 'done', explained: { ...explained, code } });
    assert.deepEqual(fitState({ turns: [question('for (;;) {}')] }).message.turns[0].explained, explained);
    const tooLong = fitState({ turns: [question('x'.repeat(LIMITS.explainedCode + 1))] }).message.turns[0];
    assert.equal(tooLong.explained, undefined);
    assert.equal(tooLong.content, 'Explain this code…');
  });

  it('values of the wrong kind from a damaged conversation file do not reach the view', () => {
    const damaged = {
      id: 'd1',
      role: 'system',
      content: 42,
      status: 'thinking',
      usage: { promptTokens: -1, completionTokens: 1, totalTokens: 0 },
      omittedMessages: 0,
      fullLength: 'long',
      moreImages: -3,
      images: 'not a list',
    } as unknown as Turn;
    const { message } = fitState({ turns: [damaged], draftAt: -1, earlierTurns: Number.NaN });
    assert.deepEqual(message.turns[0], { id: 'd1', role: 'assistant', content: '', status: 'done' });
    assert.equal(message.earlierTurns, 0);
    assert.equal(message.draftAt, undefined);
  });

  it('every kind of message, with every field oversized, still fits (seeded)', () => {
    const seed = 20_251_125;
    const random = seededRandom(seed);
    const text = (max: number) => 'y'.repeat(random() < 0.5 ? max : max + 1 + Math.floor(random() * 3 * max));
    const turn = (): Turn => ({
      id: text(LIMITS.id),
      role: random() < 0.5 ? 'user' : 'assistant',
      content: random() < 0.2 ? text(LIMITS.text) : `short ${PICTURE_MARKER.repeat(Math.floor(random() * 30))}`,
      status: 'done',
      finishReason: text(LIMITS.finishReason),
      notice: text(LIMITS.notice),
      contextLabel: text(LIMITS.contextLabel),
      images: Array.from({ length: Math.floor(random() * 30) }, (_, i) => picture(i)),
      error: {
        kind: text(LIMITS.errorKind),
        message: text(LIMITS.errorMessage),
        actions: ['retry', 'retry', 'openLogs', 'setKey', 'openSettings', 'proxySettings', 'openAccount'],
        requestId: text(LIMITS.requestId),
      },
    });
    for (let i = 0; i < 40; i++) {
      const messages: HostMessage[] = [
        state({
          conversationId: text(LIMITS.id),
          turns: Array.from({ length: 3 }, turn),
          models: Array.from({ length: 120 }, (_, m) => `${m}${text(LIMITS.modelName - 4)}`),
          model: text(LIMITS.modelName),
          draft: text(LIMITS.draft),
        }),
        {
          type: 'earlierPage',
          conversationId: text(LIMITS.id),
          before: text(LIMITS.id),
          turns: Array.from({ length: 3 }, turn),
          earlierTurns: 4,
          earlierQuestions: [text(LIMITS.draft)],
        },
        { type: 'turnAdded', conversationId: text(LIMITS.id), turn: turn() },
        { type: 'turnUpdated', turn: turn() },
        { type: 'delta', turnId: text(LIMITS.id), text: text(1_000) },
        { type: 'attachments', attachments: [{ id: text(LIMITS.id), label: text(LIMITS.chipLabel), title: text(LIMITS.chipTitle) }] },
      ];
      for (const message of messages) assert.doesNotThrow(() => fit(message), `seed ${seed}, round ${i}, ${message.type}`);
    }
  });
});
