import * as assert from 'node:assert/strict';
import { conversationMarkdown, type MarkdownLabels } from '../../../../src/host/chat/conversationMarkdown';
import { newConversation } from '../../../../src/core';

const labels: MarkdownLabels = {
  you: 'You',
  assistant: 'GigaChat',
  context: (label) => `Context: ${label}`,
  picture: 'Generated image',
  stopped: 'Stopped',
  failed: (reason) => `The reply failed: ${reason}`,
  shortened: (count) => `It did not see the first ${count} messages`,
  sources: 'Sources',
};

describe('a conversation exported as Markdown', () => {
  it('has the title, then each turn with who wrote it, replies as written, pictures and what a reply did not see as notes', () => {
    const conversation = { ...newConversation(), title: 'Explain retries' };
    conversation.turns.push(
      { id: 'u1', role: 'user', content: 'What does `retry` do?', status: 'done', contextLabel: 'retry.ts:1-20' },
      { id: 'a1', role: 'assistant', content: '## Retries\n\nIt repeats.\n\n```ts\nretry(f);\n```', status: 'done', omittedMessages: 4 },
      { id: 'u2', role: 'user', content: 'Draw it', status: 'done' },
      { id: 'a2', role: 'assistant', content: 'Here: <img src="3a1f0b6e-0000-4000-8000-000000000001" fuse="true"/>', status: 'stopped' },
      { id: 'u3', role: 'user', content: 'Again', status: 'done' },
      { id: 'a3', role: 'assistant', content: '', status: 'error', error: { kind: 'network', message: 'Could not connect.', actions: [] } },
    );
    assert.equal(
      conversationMarkdown(conversation, labels),
      [
        '# Explain retries',
        '**You**\n\n*Context: retry.ts:1-20*\n\nWhat does `retry` do?',
        '**GigaChat**\n\n## Retries\n\nIt repeats.\n\n```ts\nretry(f);\n```\n\n*(It did not see the first 4 messages)*',
        '**You**\n\nDraw it',
        '**GigaChat**\n\nHere: *(Generated image)*\n\n*(Stopped)*',
        '**You**\n\nAgain',
        '**GigaChat**\n\n*(The reply failed: Could not connect.)*',
      ].join('\n\n---\n\n') + '\n',
    );
  });

  it('keeps formulas and dollars exactly as the model wrote them, for Markdown renderers to typeset', () => {
    const conversation = { ...newConversation(), title: 'Roots' };
    const reply = 'Count: $1\\, 2\\, 3$, roots \\(x^2\\) and\n\n$$\n\\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\n$$\n\nCost: $1.5 million, \\$5, `$x$`.';
    conversation.turns.push(
      { id: 'u1', role: 'user', content: 'Solve $x^2 = 4$', status: 'done' },
      { id: 'a1', role: 'assistant', content: reply, status: 'done' },
    );
    assert.equal(conversationMarkdown(conversation, labels), `# Roots\n\n---\n\n**You**\n\nSolve $x^2 = 4$\n\n---\n\n**GigaChat**\n\n${reply}\n`);
  });

  it("gives a web answer's markers as links to its sources, and lists them after it, without its reasoning", () => {
    const conversation = { ...newConversation(), title: 'Python news' };
    conversation.turns.push(
      { id: 'u1', role: 'user', content: 'What is new? #web', status: 'done', web: true },
      {
        id: 'a1',
        role: 'assistant',
        content: 'A faster JIT [sources=[2]].',
        status: 'done',
        reasoning: 'The user asks what is new.',
        webSources: { '2': { url: 'https://realpython.com/news/', title: 'News' }, '1': { url: 'https://docs.python.org/3/', title: 'Docs' } },
      },
    );
    assert.equal(
      conversationMarkdown(conversation, labels).split('\n\n---\n\n')[2],
      '**GigaChat**\n\nA faster JIT [[2]](https://realpython.com/news/).\n\n*Sources:*\n\n1. <https://docs.python.org/3/> (docs.python.org)\n2. <https://realpython.com/news/> (realpython.com)\n',
    );
  });
});
