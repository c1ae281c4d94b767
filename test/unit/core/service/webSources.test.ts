import * as assert from 'node:assert/strict';
import { linkSourceMarkers, stableSourcePrefix, webSourceList } from '../../../../src/core';
import { streamedDelta, toViewTurn } from '../../../../src/host/chat/viewTurns';
import { MAX_LINKED_URL } from '../../../../src/core/service/webSources';
import { LIMITS } from '../../../../src/shared/protocol';
import MarkdownIt from 'markdown-it';

/** The links Markdown reads in `text` (as the chat view's markdown-it does): each link's text and where it goes, decoded. */
function renderedLinks(text: string): { text: string; href: string }[] {
  const tokens = new MarkdownIt().parseInline(text, {})[0].children ?? [];
  return tokens.flatMap((token, i) =>
    token.type === 'link_open' ? [{ text: tokens[i + 1].content, href: decodeURI(String(token.attrGet('href') ?? '')) }] : [],
  );
}

const sources = {
  '2': { url: 'https://realpython.com/python-news-february-2026/', title: 'pandas 3.0 Lands Breaking Changes' },
  '1': { url: 'https://www.learn.microsoft.com/ru-ru/python', title: '  Руководство\n по Python  ' },
  '3': { url: 'javascript:alert(1)', title: 'Not a page' },
  x: { url: 'https://example.org/', title: 'Not numbered' },
};

describe('web answers: the sources a reply cites', () => {
  it('lists the http(s) pages by number with a readable title and the site', () => {
    assert.deepEqual(webSourceList(sources), [
      { number: 1, url: 'https://www.learn.microsoft.com/ru-ru/python', title: 'Руководство по Python', host: 'learn.microsoft.com' },
      { number: 2, url: 'https://realpython.com/python-news-february-2026/', title: 'pandas 3.0 Lands Breaking Changes', host: 'realpython.com' },
    ]);
  });

  it('turns each marker into numbered links, and numbers it cannot link into plain numbers', () => {
    const list = webSourceList(sources);
    assert.equal(
      linkSourceMarkers('Faster JIT [sources=[2]]. UTF-8 by default [sources=[1, 2]]; and [sources=[3]].', list),
      'Faster JIT [[2]](https://realpython.com/python-news-february-2026/). UTF-8 by default [[1]](https://www.learn.microsoft.com/ru-ru/python)[[2]](https://realpython.com/python-news-february-2026/); and [3].',
    );
    assert.equal(linkSourceMarkers('A [link](https://a.example) and [2] stay.', list), 'A [link](https://a.example) and [2] stay.');
  });

  it('holds back a marker still arriving, and nothing else', () => {
    for (const partial of ['[', '[so', '[sources=', '[sources=[1, ', '[sources=[1, 2]'])
      assert.equal(stableSourcePrefix(`It is fast ${partial}`), 'It is fast ');
    assert.equal(stableSourcePrefix('See [the docs'), 'See [the docs');
    assert.equal(stableSourcePrefix('Done [sources=[2]]'), 'Done [sources=[2]]');
  });

  it('a streamed web answer never shows a raw marker, and ends with links and its sources', () => {
    const content = 'The JIT got faster [sources=[2]]. UTF-8 is the default [sources=[1]].';
    let shown = 0;
    let view = '';
    for (let end = 1; end <= content.length; end++) {
      const next = streamedDelta(content.slice(0, end), shown);
      view += next.text;
      shown = next.shown;
      assert.doesNotMatch(view, /sources=/, `after ${end} characters`);
    }
    assert.equal(view, 'The JIT got faster [2]. UTF-8 is the default [1].');
    const turn = toViewTurn({ id: 'r', role: 'assistant', content, status: 'done', webSources: sources });
    assert.match(turn.content, /faster \[\[2\]\]\(https:\/\/realpython\.com\/python-news-february-2026\/\)\./);
    assert.deepEqual(
      turn.webSources?.map((source) => source.number),
      [1, 2],
    );
  });

  it('links the whole address when it holds parentheses, angle brackets or spaces', () => {
    const addresses = {
      '1': { url: 'https://en.wikipedia.org/wiki/Mercury_(planet)', title: 'Mercury' },
      '2': { url: 'https://example.org/search?q=f(x))&page=2', title: 'An unbalanced parenthesis' },
      '3': { url: 'https://example.org/a b/<c>/d\\e)', title: 'Spaces and brackets' },
    };
    const list = webSourceList(addresses);
    const linked = linkSourceMarkers('See [sources=[1, 2, 3]].', list);
    assert.deepEqual(
      renderedLinks(linked),
      list.map((source) => ({ text: `[${source.number}]`, href: decodeURI(source.url) })),
    );
    assert.equal(linked.replace(/\]\([^)]*\)/g, '').replace(/\[\[/g, '['), 'See [1][2][3].', 'nothing of an address is left as text');
  });

  it('cites each page of a marker once, and a few at most, however long the marker', () => {
    const list = webSourceList(
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [String(i + 1), { url: `https://example.org/${i + 1}`, title: `Page ${i + 1}` }])),
    );
    const repeated = `Yes [sources=[${Array(4_000).fill('1').join(',')}]].`;
    assert.equal(linkSourceMarkers(repeated, list), 'Yes [[1]](https://example.org/1).');
    const many = linkSourceMarkers(`Yes [sources=[${Array.from({ length: 20 }, (_, i) => i + 1).join(', ')}]].`, list);
    assert.deepEqual(
      renderedLinks(many).map((link) => link.text),
      ['[1]', '[2]', '[3]', '[4]', '[5]'],
    );
  });

  it('does not link an address longer than the chat view takes', () => {
    assert.equal(MAX_LINKED_URL, LIMITS.webAddress);
    const long = `https://example.org/?q=${'a'.repeat(MAX_LINKED_URL)}`;
    const list = webSourceList({ '1': { url: long, title: 'Long' }, '2': { url: 'https://example.org/', title: 'Short' } });
    assert.equal(linkSourceMarkers('See [sources=[1, 2]].', list), 'See [1][[2]](https://example.org/).');
  });
});
