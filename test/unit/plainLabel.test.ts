import * as assert from 'node:assert/strict';
import { plainLabel } from '../../src/host/edits/plainLabel';

/** VS Code's notifications turn `[text](http…|command:…|file:…)` into links (its own pattern, as it reads a message). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('plainLabel: a file name in the question about a change is never a link', () => {
  it('breaks every markdown link a hostile file name holds, keeping its characters in sight', () => {
    const hostile = 'rt/![x](http://evil.example/p.png) [click](https://evil.example) [run](command:workbench.action.terminal.new) **bold**.md';
    const shown = plainLabel(hostile);
    assert.deepEqual([...shown.matchAll(NOTIFICATION_LINK)], []);
    assert.equal(shown.replace(/ /g, ''), hostile.replace(/ /g, ''), 'only spaces were added');
    assert.match(shown, /\*\*bold\*\*\.md$/);
  });

  it('leaves ordinary names, brackets of route files included, as they are', () => {
    for (const name of ['src/app/[id]/page.tsx', 'pages/[...slug].tsx', 'docs/notes (draft).md', 'src/index.ts']) assert.equal(plainLabel(name), name);
  });
});
