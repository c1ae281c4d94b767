import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HELP_PAGES } from '../../../../src/host/help/helpPageNames';

const docs = path.join(root, 'media/docs');
const read = (file: string) => fs.readFileSync(file, 'utf8');

/** The heading anchors of a Markdown page, as VS Code's preview makes them (lower case, spaces to dashes, punctuation dropped). */
function anchors(text: string): Set<string> {
  return new Set(
    [...text.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
      heading
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\s-]/gu, '')
        .trim()
        .replace(/\s/g, '-'),
    ),
  );
}

/** The relative links of a page: `[text](file.md#anchor)` or `[text](#anchor)`. */
function relativeLinks(text: string): { file: string; anchor?: string }[] {
  return [...text.matchAll(/\]\((?!https?:|command:|mailto:)([^)\s#]*)(?:#([^)\s]+))?\)/g)].map(([, file, anchor]) => ({ file, anchor }));
}

/** The help pages: one a feature, in English and Russian, linked to each other and from the README. */
describe('help pages', () => {
  const pages = HELP_PAGES.flatMap((page) => [`${page}.md`, `${page}.ru.md`]);

  it('every page exists in both languages, and nothing else is in the folder', () => {
    assert.deepEqual(fs.readdirSync(docs).sort(), [...pages].sort());
  });

  it('a Russian page is written in Russian, an English one in English', () => {
    for (const page of pages) {
      const prose = read(path.join(docs, page)).replace(/`[^`]*`|\]\([^)]*\)/g, '');
      const cyrillic = (prose.match(/\p{Script=Cyrillic}/gu) ?? []).length;
      const latin = (prose.match(/\p{Script=Latin}/gu) ?? []).length;
      if (page.endsWith('.ru.md')) assert.ok(cyrillic > latin, `${page}: ${cyrillic} Cyrillic letters against ${latin} Latin`);
      else assert.ok(cyrillic < latin / 20, `${page}: ${cyrillic} Cyrillic letters against ${latin} Latin`);
    }
  });

  it('every link between pages leads to a page and a heading that exist, in the same language', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const { file, anchor } of relativeLinks(read(path.join(docs, page)))) {
        const target = file || page;
        if (!fs.existsSync(path.join(docs, target))) broken.push(`${page} → ${target}`);
        else if (target.endsWith('.ru.md') !== page.endsWith('.ru.md')) broken.push(`${page} → ${target}: another language`);
        else if (anchor && !anchors(read(path.join(docs, target))).has(decodeURIComponent(anchor))) broken.push(`${page} → ${target}#${anchor}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('the README links to every English page', () => {
    const readme = read(path.join(root, 'README.md'));
    const missing = HELP_PAGES.filter((page) => !readme.includes(`(media/docs/${page}.md)`));
    assert.deepEqual(missing, []);
  });

  it('the walkthrough links to the help of each feature it shows, in both languages', () => {
    for (const file of ['package.nls.json', 'package.nls.ru.json']) {
      const strings = Object.values(JSON.parse(read(path.join(root, file))) as Record<string, string>).join('\n');
      const linked = [...strings.matchAll(/command:gigachat\.help\?%5B%22(\w+)%22%5D/g)].map(([, page]) => page);
      assert.deepEqual([...new Set(linked)].sort(), ['chat', 'completions', 'key', 'search', 'vscodeChat'], file);
    }
  });
});
