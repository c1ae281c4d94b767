import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import { guardLinks, LinkGuard, MAX_HELD } from '../../../../src/core/agent/linkGuard';
import { seededRandom } from '../../support/random';

/** The workspace, as the host's predicate sees it: file URIs below /work/project. */
const inWorkspace = (destination: string) => /^file:\/\/\/work\/project\//.test(destination) && !destination.includes('..');
const guard = (text: string) => guardLinks(text, inWorkspace);

/** Every link target a CommonMark renderer makes of `markdown` (markdown-it with no scheme filter of its own). */
function renderedTargets(markdown: string): string[] {
  const renderer = new MarkdownIt({ linkify: true });
  renderer.validateLink = () => true;
  const html = renderer.render(markdown);
  return [...html.matchAll(/(?:href|src)="([^"]*)"/g)].map((match) => renderer.utils.unescapeAll(match[1]));
}

const safe = (target: string) => /^https?:\/\//i.test(target) || inWorkspace(decodeURI(target));

describe("LinkGuard: only web and workspace links stay links in the model's answer", () => {
  it('makes links to other places inert, showing where they pointed', () => {
    assert.equal(guard('see [the passwords](file:///etc/passwd) now'), 'see [the passwords]\\(file:///etc/passwd) now');
    assert.equal(guard('[clone](vscode://vscode.git/clone?url=https://evil)'), '[clone]\\(vscode://vscode.git/clone?url=https://evil)');
    assert.equal(
      guard('open <file://server/share/x> or <command:workbench.action.terminal.new>'),
      'open \\<file://server/share/x> or \\<command:workbench.action.terminal.new>',
    );
    assert.equal(guard('![pixel](file:///home/u/.ssh/id_rsa)'), '![pixel]\\(file:///home/u/.ssh/id_rsa)');
    for (const text of [
      '[x](file:///etc/passwd)',
      '<vscode://x>',
      '[x](  JaVaScRiPt:alert(1))',
      '[x](file&#58;///etc/passwd)',
      '[x](&#x66;ile:///etc)',
      '[x](<file:///a b>)',
    ])
      assert.deepEqual(renderedTargets(guard(text)), [], text);
  });

  it('keeps web links, and file links into the workspace, as they are', () => {
    const text = 'See [docs](https://example.com/a_(b)) and <https://x.org>, ![i](http://x/i.png "t") and [a.ts](file:///work/project/src/a.ts).';
    assert.equal(guard(text), text);
  });

  it('makes a reference definition to another place no definition, and keeps a web one', () => {
    assert.equal(guard('Click [here][x].\n\n[x]: command:rm\n'), 'Click [here][x].\n\n\\[x]: command:rm\n');
    assert.equal(guard('> [x]: file:///etc/passwd\n'), '> \\[x]: file:///etc/passwd\n');
    assert.deepEqual(renderedTargets(guard('[a][x]\n\n[x]:\n  file:///etc/passwd\n')), [], 'a destination on the next line');
    assert.equal(guard('[a][w]\n\n[w]: https://example.com\n'), '[a][w]\n\n[w]: https://example.com\n');
  });

  it('guards a fence the renderer does not see as one (a list decided otherwise), from then on', () => {
    const text = '- ```\n\n- ```\n\n   ```\n[e](file:///etc) and\n```\nx[i](y)\n```\n';
    const shown = guard(text);
    assert.deepEqual(
      renderedTargets(shown).filter((target) => !safe(target)),
      [],
    );
    assert.match(shown, /\[e\]\\\(file:\/\/\/etc\)/);
  });

  it('leaves fenced code alone, byte for byte, and guards everything else, code spans too', () => {
    const code = '```md\n[x](file:///etc/passwd) <vscode://y>\n```\n~~~\n[r]: command:x\n~~~\n';
    assert.equal(guard(code), code);
    // A code span may run over lines, where a guard that skipped it would misjudge what follows: guarded too.
    assert.equal(guard('Use `[x](file:///z)` here.'), 'Use `[x]\\(file:///z)` here.');
    assert.deepEqual(renderedTargets(guard('a `\nb\n`[x](file:///etc/passwd)`')), []);
    assert.deepEqual(renderedTargets(guard('> ```\n[x](file:///etc/passwd)\n')), [], 'a fence in a quote ends with the quote');
    assert.equal(guard('```a`b\n[x](file:///e)\n'), '```a`b\n[x]\\(file:///e)\n', 'a backtick in the info string makes no fence');
  });

  it('shows plain text at once, and a link as soon as it is judged', () => {
    const stream = new LinkGuard(inWorkspace);
    assert.equal(stream.push('Hello, world. '), 'Hello, world. ');
    assert.equal(stream.push('A [link](https://exa'), 'A [link');
    assert.equal(stream.push('mple.com) done'), '](https://example.com) done');
    assert.equal(stream.end(), '');
  });

  it('holds no more than its limit: a destination that never ends is made inert', () => {
    const stream = new LinkGuard(inWorkspace);
    const shown = stream.push(`[x](file:///${'a'.repeat(MAX_HELD + 10)}`);
    assert.ok(shown.startsWith('[x]\\('), shown.slice(0, 20));
    assert.equal(stream.end(), '');
  });

  it('gives the same text however the answer is cut into chunks, and no unsafe link survives', () => {
    const fragments = [
      'Plain words. ',
      '[ok](https://example.com/a) ',
      '[bad](file:///etc/passwd) ',
      '![img](vscode://x) ',
      '<file://srv/share> ',
      '<https://ok.org> ',
      '`code [x](file:///c)` ',
      '``a ` b`` ',
      '\\[not](file:///n) ',
      '\n```\n[in](file:///fence)\n```\n',
      '\n[d]: command:x\n',
      '\n> [q]: file:///q\n',
      '[ref][d] ',
      '[w](file:///work/project/src/a.ts) ',
      '[up](file:///work/project/../secret) ',
      '[e](file&#58;///etc) ',
      '\n- item [l](file:///l)\n',
      '[nest [in](file:///n2)](https://x.org) ',
      '<',
      '](',
      '`',
      '\n',
      'Привет, мир 👋 ',
      '\n- ```\n',
      '\n   ```\n',
      '\n> ```\n',
      '\n    ```\n',
      '[t](<file:///angle>) ',
      '[t](file:///title "a)b") ',
      '[t]( file:///spaced ) ',
      '[t](\nfile:///newline) ',
      '<FILE:///upper> ',
      '[t](h&#116;tps://example.com) ',
      '[t][] ',
      '[t]\n\n[t]: <file:///angle-def>\n',
    ];
    const random = seededRandom(20261126);
    for (let round = 0; round < 1500; round++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 14) }, () => fragments[Math.floor(random() * fragments.length)]).join('');
      const wholeGuard = new LinkGuard(inWorkspace);
      const whole = wholeGuard.push(text) + wholeGuard.end();
      const stream = new LinkGuard(inWorkspace);
      let streamed = '';
      for (let at = 0; at < text.length;) {
        const size = 1 + Math.floor(random() * 12);
        streamed += stream.push(text.slice(at, at + size));
        at += size;
      }
      streamed += stream.end();
      assert.equal(streamed, whole, JSON.stringify(text));
      for (const shown of [whole, streamed])
        assert.deepEqual(
          renderedTargets(shown).filter((target) => !safe(target)),
          [],
          JSON.stringify(text),
        );
    }
  });
});
