import * as assert from 'node:assert/strict';
import { linkSourceMarkers, stableSourcePrefix, webSourceList } from '../../src/core';
import { streamedDelta, toViewTurn } from '../../src/host/chat/viewTurns';

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
});
