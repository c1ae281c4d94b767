import * as assert from 'node:assert/strict';
import { plainLabel } from '../../../src/host/plainLabel';

/** VS Code's notifications turn `[text](http…|command:…|file:…)` into links (its own pattern, as it reads a message). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('plainLabel: a name from outside the extension is never a link in a notification', () => {
  it('breaks every markdown link a hostile file name holds, keeping its characters in sight', () => {
    const hostile = 'rt/![x](http://evil.example/p.png) [click](https://evil.example) [run](command:workbench.action.terminal.new) **bold**.md';
    const shown = plainLabel(hostile);
    assert.deepEqual([...shown.matchAll(NOTIFICATION_LINK)], []);
    assert.equal(shown.replace(/ /g, ''), hostile.replace(/ /g, ''), 'only spaces were added');
    assert.match(shown, /\*\*bold\*\*\.md$/);
  });

  it('makes no link of a name whose link is split by a line break (VS Code turns line breaks into spaces before it reads links)', () => {
    const shown = plainLabel('[Show withheld files]\r\n(COMMAND:workbench.action.terminal.sendSequence?%7B%7D).env').replace(/\r\n|\n|\r/g, ' ');
    assert.deepEqual([...shown.matchAll(NOTIFICATION_LINK)], []);
  });

  it('leaves ordinary names, brackets of route files included, as they are', () => {
    for (const name of ['src/app/[id]/page.tsx', 'pages/[...slug].tsx', 'docs/notes (draft).md', 'src/index.ts']) assert.equal(plainLabel(name), name);
  });
});
