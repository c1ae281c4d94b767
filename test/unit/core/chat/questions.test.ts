import * as assert from 'node:assert/strict';
import { addQuestion, newConversation, replaceQuestion, type Conversation } from '../../../../src/core';

/** A chat of two questions and their replies; the first was about code from the editor. */
function chat(): Conversation {
  const conversation = newConversation();
  addQuestion(conversation, { text: 'Explain this', contextLabel: 'retry.ts:1–20', notice: 'The selection was trimmed.' });
  conversation.turns.push({ id: 'a1', role: 'assistant', content: 'It retries.', status: 'done' });
  addQuestion(conversation, { text: 'And in Go?' });
  conversation.turns.push({ id: 'a2', role: 'assistant', content: 'Use a loop.', status: 'done' });
  return conversation;
}

describe('the questions of a conversation', () => {
  it('the first question names the conversation, with the code it is about; later ones do not', () => {
    const conversation = chat();
    assert.equal(conversation.title, 'retry.ts:1–20: Explain this');
    assert.deepEqual(
      conversation.turns.map((turn) => turn.role),
      ['user', 'assistant', 'user', 'assistant'],
    );
  });

  it('an edited question replaces itself and every turn after it, and keeps the code it was about unless the edit names its own', () => {
    const conversation = chat();
    const [first] = conversation.turns;
    const edited = replaceQuestion(conversation, first.id, { text: 'Explain this briefly' });
    assert.ok(edited);
    assert.deepEqual(conversation.turns, [edited]);
    assert.notEqual(edited.id, first.id, 'a new turn: the view redraws it');
    assert.equal(edited.contextLabel, 'retry.ts:1–20');
    assert.equal(edited.notice, 'The selection was trimmed.');
    assert.equal(conversation.title, 'retry.ts:1–20: Explain this briefly', 'the first question renames the chat');

    const again = replaceQuestion(conversation, edited.id, { text: 'Explain these', contextLabel: 'retry.ts:1–20, upload.ts:4' });
    assert.equal(again?.contextLabel, 'retry.ts:1–20, upload.ts:4');
    assert.equal(again?.notice, 'The selection was trimmed.');
  });

  it('an Explain question shows what it explains until it is edited: the edit shows the text sent', () => {
    const conversation = newConversation();
    const explained = { file: 'src/retry.ts', first: 1, last: 20, language: 'typescript', code: 'retry();' };
    const question = addQuestion(conversation, { text: 'Explain this code from src/retry.ts…', contextLabel: 'retry.ts:1–20', explained });
    assert.deepEqual(question.explained, explained);
    const edited = replaceQuestion(conversation, question.id, { text: 'Explain this code, briefly' });
    assert.equal(edited?.explained, undefined);
    assert.equal(edited?.contextLabel, 'retry.ts:1–20', 'the code it was about is still named');
  });

  it('a later question edited leaves the title and the turns before it', () => {
    const conversation = chat();
    const edited = replaceQuestion(conversation, conversation.turns[2].id, { text: 'And in Rust?' });
    assert.deepEqual(
      conversation.turns.map((turn) => turn.content),
      ['Explain this', 'It retries.', 'And in Rust?'],
    );
    assert.equal(edited?.contextLabel, undefined);
    assert.equal(conversation.title, 'retry.ts:1–20: Explain this');
  });

  it("where the model's context starts: at the new question if the replaced one started it, from the beginning if a later turn did", () => {
    const startingAtQuestion = chat();
    startingAtQuestion.contextFrom = startingAtQuestion.turns[2].id;
    const edited = replaceQuestion(startingAtQuestion, startingAtQuestion.turns[2].id, { text: 'And in Rust?' });
    assert.equal(startingAtQuestion.contextFrom, edited?.id);

    const startingLater = chat();
    startingLater.contextFrom = 'a2';
    replaceQuestion(startingLater, startingLater.turns[2].id, { text: 'And in Rust?' });
    assert.equal(startingLater.contextFrom, undefined);

    const startingBefore = chat();
    startingBefore.contextFrom = startingBefore.turns[0].id;
    replaceQuestion(startingBefore, startingBefore.turns[2].id, { text: 'And in Rust?' });
    assert.equal(startingBefore.contextFrom, startingBefore.turns[0].id, 'still there: unchanged');
  });

  it('a question that is not there, or a reply, is not replaced, and nothing changes', () => {
    const conversation = chat();
    const before = structuredClone(conversation);
    assert.equal(replaceQuestion(conversation, 'gone', { text: 'x' }), undefined);
    assert.equal(replaceQuestion(conversation, 'a1', { text: 'x' }), undefined);
    assert.deepEqual(conversation, before);
  });
});
