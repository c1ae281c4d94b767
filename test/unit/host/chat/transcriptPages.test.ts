import { MAX_IMAGE_BYTES } from '../../../../src/serviceFacts/fileFacts';
import * as assert from 'node:assert/strict';
import type { Conversation, StoredTurn } from '../../../../src/core';
import { fitHostMessage } from '../../../../src/host/chat/fitMessage';
import type { ImageStore } from '../../../../src/host/chat/imageStore';
import { earlierQuestions, PAGE, pageStart, TranscriptPages } from '../../../../src/host/chat/transcriptPages';
import { sniffImageType, viewPicture } from '../../../../src/host/chat/viewPictures';
import { HostMessage, LIMITS } from '../../../../src/shared/protocol';

/** A conversation of `count` turns, questions and replies in turn; `last` replaces the text of the last reply. */
function conversation(count: number, last?: string): Conversation {
  const turns: StoredTurn[] = Array.from({ length: count }, (_, i) => ({
    id: `turn-${i}`,
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: i % 2 === 0 ? `question ${i / 2}` : `reply ${i}`,
    status: 'done',
  }));
  if (last !== undefined) turns[count - 1].content = last;
  return { id: 'c-long', title: 'long', createdAt: 1, updatedAt: 1, sessionId: 's', turns };
}

/** The pages of a conversation with no pictures: nothing to read or download. */
function pages(posted: HostMessage[] = []): TranscriptPages {
  const images = { attachments: async () => [] } as unknown as ImageStore;
  return new TranscriptPages(images, { post: (message) => posted.push(message), isOpen: () => true, fetchMissing: async () => [] });
}

/** The state as the view provider posts it, fitted; parsed with the view's schema. */
async function stateOf(opened: Conversation): Promise<Extract<HostMessage, { type: 'state' }>> {
  const page = (await pages().newest(opened))();
  const { message } = fitHostMessage({
    type: 'state',
    hasKey: true,
    conversationId: opened.id,
    ...page,
    busy: false,
    models: [],
    model: 'GigaChat',
    draft: '',
    attachments: [],
  });
  const parsed = HostMessage.parse(message);
  assert.equal(parsed.type, 'state');
  return parsed;
}

describe('a long conversation, shown a page at a time', () => {
  it('a stored conversation of 2,500 turns opens with its newest page, and says how many turns come before it', async () => {
    const state = await stateOf(conversation(2_500));
    assert.equal(state.turns.length, PAGE.turns);
    assert.equal(state.turns.at(-1)?.id, 'turn-2499');
    assert.equal(state.earlierTurns, 2_500 - PAGE.turns);
    // ↑ goes on past the page: the questions before it, the newest 50.
    assert.equal(state.earlierQuestions.length, LIMITS.earlierQuestions);
    assert.equal(state.earlierQuestions.at(-1), `question ${(2_500 - PAGE.turns) / 2 - 1}`);
  });

  it('a reply of 2,000,001 characters at the end is a page of its own, shown cut', async () => {
    const state = await stateOf(conversation(10, 'r'.repeat(2_000_001)));
    assert.deepEqual(
      state.turns.map((turn) => turn.id),
      ['turn-9'],
    );
    assert.equal(state.turns[0].content.length, LIMITS.text);
    assert.equal(state.turns[0].fullLength, 2_000_001);
    assert.equal(state.earlierTurns, 9);
  });

  it('each page holds at most a page of text, but always one turn', () => {
    const turns = conversation(6).turns;
    for (const turn of turns) turn.content = 'x'.repeat(400_000);
    assert.equal(pageStart(turns, 6), 4, 'two turns of 400,000 characters fit a million, three do not');
    assert.equal(pageStart(turns, 4), 2);
    turns[1].content = 'y'.repeat(3_000_000);
    assert.equal(pageStart(turns, 2), 1, 'a turn longer than a page is a page of its own');
    assert.equal(pageStart(turns, 0), 0);
  });

  it('the page before the oldest turn shown ends right before it, and goes on back to the first turn', async () => {
    const opened = conversation(250);
    const posted: HostMessage[] = [];
    const transcript = pages(posted);
    (await transcript.newest(opened))();
    let before = 'turn-150';
    const seen: string[] = [];
    for (;;) {
      const page = await transcript.earlier(opened, before);
      assert.ok(page);
      assert.ok(HostMessage.safeParse(fitHostMessage(page).message).success);
      assert.equal(page.turns.at(-1)?.id, `turn-${Number(before.slice(5)) - 1}`);
      seen.push(...page.turns.map((turn) => turn.id));
      if (page.earlierTurns === 0) break;
      before = page.turns[0].id;
    }
    assert.equal(seen.length, 150);
    assert.equal(await transcript.earlier(opened, 'a turn that is gone'), undefined);
  });

  it('↑ skips questions longer than a message (they could not be sent again)', () => {
    const turns = conversation(6).turns;
    turns[2].content = 'z'.repeat(LIMITS.draft + 1);
    assert.deepEqual(earlierQuestions(turns, 6), ['question 0', 'question 2']);
  });
});

describe('pictures as the view gets them', () => {
  const jpeg = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]);
  it('a stored picture is given by its address, never by its bytes', () => {
    assert.deepEqual(viewPicture('p1', { bytes: 120_000, type: sniffImageType(jpeg), address: 'https://file%2B.vscode-resource.vscode-cdn.net/s/p1.jpg' }), {
      fileId: 'p1',
      src: 'https://file%2B.vscode-resource.vscode-cdn.net/s/p1.jpg',
    });
  });

  it('a picture over the service’s 15 MB, or of a type a browser cannot draw, is offered to open instead', () => {
    assert.deepEqual(viewPicture('p2', { bytes: MAX_IMAGE_BYTES + 1, address: 'https://x.example/p2.jpg' }), {
      fileId: 'p2',
      unavailable: 'tooLarge',
      bytes: MAX_IMAGE_BYTES + 1,
    });
    const tiff = Uint8Array.from([0x49, 0x49, 0x2a, 0x00]);
    const bmp = Uint8Array.from([0x42, 0x4d, 0, 0]);
    for (const bytes of [tiff, bmp, Uint8Array.from([1, 2, 3, 4])]) {
      assert.equal(
        (viewPicture('p3', { bytes: 10, type: sniffImageType(bytes), address: 'https://x.example/p3' }) as { unavailable: string }).unavailable,
        'unsupportedType',
      );
    }
    assert.deepEqual(viewPicture('p4', { bytes: 10, type: 'image/png' }), { fileId: 'p4', unavailable: 'cannotLoad', bytes: 10 }, 'no view to load it yet');
  });
});
