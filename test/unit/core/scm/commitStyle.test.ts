import * as assert from 'node:assert/strict';
import { branchTicket, commitStyle } from '../../../../src/core/scm/commitStyle';
import { cleanCommitMessage, commitMessagePrompt, type CommitRequest } from '../../../../src/core/scm/commitPrompt';

const CONVENTIONAL_RUSSIAN = [
  'feat(auth): вход по ключу авторизации\n\nПодробности в теле.',
  'fix(chat): не терять ответ при обрыве связи',
  'fix: правильный счёт токенов',
  "Merge branch 'main' into feature/x",
  'docs: раздел о прокси-сервере',
  'feat(search): индексация в фоне',
];

const TICKETS_ENGLISH = ['ABC-101: Add the export button', 'ABC-99: Fix the crash on empty input', 'ABC-98: Update dependencies', 'Tidy up'];

function systemText(request: CommitRequest): string {
  const [system] = commitMessagePrompt(request);
  return system.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
}

const base: Omit<CommitRequest, 'style'> = { digest: '1 file changed', language: 'auto', fallbackLanguage: 'en', instructions: '', scope: 'staged' };

describe("a repository's commit style", () => {
  it('reads conventional commits with scopes, in Russian, leaving merges out', () => {
    const style = commitStyle(CONVENTIONAL_RUSSIAN);
    assert.deepEqual(style.conventional, { types: ['feat', 'fix', 'docs'], scoped: true });
    assert.equal(style.language, 'ru');
    assert.equal(style.ticket, undefined);
    assert.equal(style.subjects.length, 5, 'the merge is not an example of the style');
    assert.ok(
      style.subjects.every((subject) => !subject.includes('\n')),
      'subjects only, not bodies',
    );
    assert.equal(style.capitalized, false);
  });

  it('reads a ticket prefix, English, capitals and the usual length; a branch names the ticket', () => {
    const style = commitStyle(TICKETS_ENGLISH);
    assert.equal(style.conventional, undefined);
    assert.deepEqual(style.ticket, { example: 'ABC-101: ' });
    assert.equal(style.language, 'en');
    assert.equal(style.capitalized, true);
    assert.equal(style.fullStop, undefined);
    assert.ok(style.typicalLength! > 20 && style.typicalLength! < 40, String(style.typicalLength));
    assert.equal(branchTicket('feature/ABC-123-export'), 'ABC-123');
    assert.equal(branchTicket('main'), undefined);
    assert.equal(branchTicket('fix-utf-8'), undefined, 'not a ticket: lower case');
  });

  it('says nothing of a habit only some subjects have, and has no style without history', () => {
    const mixed = commitStyle(['feat: a', 'Add b', 'Исправить c', 'Fix d']);
    assert.equal(mixed.conventional, undefined);
    assert.equal(mixed.language, 'en');
    const none = commitStyle([]);
    assert.deepEqual(none, { subjects: [] });
  });

  it("tells the model the style in words, the setting before the history, and the user's instructions last", () => {
    const russian = systemText({ ...base, style: commitStyle(CONVENTIONAL_RUSSIAN) });
    assert.match(russian, /Write in Russian/);
    assert.match(russian, /Conventional Commits: start the subject with a type with a scope/);
    assert.match(russian, /feat, fix, docs/);
    assert.match(systemText({ ...base, language: 'en', style: commitStyle(CONVENTIONAL_RUSSIAN) }), /Write in English/);
    const tickets = systemText({ ...base, style: commitStyle(TICKETS_ENGLISH), ticket: 'ABC-123', instructions: 'Mention the ticket.' });
    assert.match(tickets, /Start the subject with the ticket ABC-123, in the form the history uses \(like "ABC-101:"\)/);
    assert.match(tickets, /does not use Conventional Commits/);
    assert.ok(tickets.trimEnd().endsWith('Mention the ticket.'));
    assert.match(systemText({ ...base, style: commitStyle(TICKETS_ENGLISH) }), /this change's ticket is not known: do not invent one/);
    assert.match(systemText({ ...base, fallbackLanguage: 'ru', style: commitStyle([]) }), /Write in Russian/, 'no history: the display language');
  });

  it('shows the change and the recent subjects to the model, and says when everything is committed', () => {
    const [, user] = commitMessagePrompt({ ...base, scope: 'all', digest: 'the digest', style: commitStyle(TICKETS_ENGLISH) });
    const text = user.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
    assert.match(text, /nothing is staged, so all of it will be committed/);
    assert.match(text, /the digest/);
    assert.match(text, /- ABC-99: Fix the crash on empty input/);
  });
});

describe('a reply cleaned into a commit message', () => {
  it('takes off fences, quotes, labels and bold, and keeps the body', () => {
    assert.equal(cleanCommitMessage('```\nfix: the parser\n\nWhy it broke.\n```\nHope this helps!'), 'fix: the parser\n\nWhy it broke.');
    assert.equal(cleanCommitMessage('```text\nfix: the parser\n```'), 'fix: the parser');
    assert.equal(cleanCommitMessage('"Add the export button"'), 'Add the export button');
    assert.equal(cleanCommitMessage('«Исправить счёт токенов»'), 'Исправить счёт токенов');
    assert.equal(cleanCommitMessage('Commit message: Add export'), 'Add export');
    assert.equal(cleanCommitMessage('**Add export**\n\n\n\nBody line   \n'), 'Add export\n\nBody line');
  });

  it('takes the message from a fenced block with prose around it, and never leaves a fence in the box', () => {
    assert.equal(cleanCommitMessage('Вот сообщение коммита:\n```\nfix: счёт токенов\n```'), 'fix: счёт токенов');
    assert.equal(
      cleanCommitMessage('Here is a message for the change:\n\n```text\nfix: the parser\n\nWhy it broke.\n```\n\nLet me know!'),
      'fix: the parser\n\nWhy it broke.',
    );
    assert.equal(cleanCommitMessage('Sure.\n~~~\nAdd export\n~~~\nThis follows your style.'), 'Add export');
    // A body that quotes code after a blank line is the message's own: the markers go, the lines stay.
    assert.equal(cleanCommitMessage('Fix the parser\n\nIt now reads:\n```\nparse(x)\n```'), 'Fix the parser\n\nIt now reads:\nparse(x)');
    assert.equal(cleanCommitMessage('Fix the ```parser```'), 'Fix the parser');
  });

  it('shows no fence on any prefix of a fenced reply after a sentence, as it streams', () => {
    const reply = 'Вот сообщение коммита:\n```\nfeat: выгрузка чатов\n\nДобавляет кнопку.\n```\nНадеюсь, подойдёт.';
    for (let end = 1; end <= reply.length; end++) {
      const shown = cleanCommitMessage(reply.slice(0, end));
      assert.ok(!shown.includes('`'), `no fence shown at ${end}: ${JSON.stringify(shown)}`);
    }
    assert.equal(cleanCommitMessage(reply), 'feat: выгрузка чатов\n\nДобавляет кнопку.');
  });

  it('leaves a message that only starts with a quoted word as it is', () => {
    assert.equal(cleanCommitMessage('"retry" now backs off'), '"retry" now backs off');
    assert.equal(cleanCommitMessage('`retry` backs off'), '`retry` backs off');
  });

  it('is the same message, growing, on every prefix of a fenced reply as it streams', () => {
    const reply = '```\nfeat: export chats\n\nAdds a button.\n```';
    let last = '';
    for (let end = 1; end <= reply.length; end++) {
      const shown = cleanCommitMessage(reply.slice(0, end));
      assert.ok(!shown.includes('`'), `no fence shown at ${end}: ${JSON.stringify(shown)}`);
      assert.ok(shown.startsWith(last.split('\n')[0].slice(0, shown.length)), `${JSON.stringify(last)} → ${JSON.stringify(shown)}`);
      last = shown;
    }
    assert.equal(last, 'feat: export chats\n\nAdds a button.');
  });
});
