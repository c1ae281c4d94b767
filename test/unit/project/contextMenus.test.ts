import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GIGACHAT_API_PAGE } from '../../../src/host/key/accountPage';

const readJson = <T>(file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as T;

interface MenuItem {
  command?: string;
  submenu?: string;
}
interface Manifest {
  contributes: {
    commands: { command: string; title: string }[];
    submenus: { id: string; label: string }[];
    menus: Record<string, MenuItem[]>;
    walkthroughs: { steps: { id: string; media: { markdown?: string; svg?: string } }[] }[];
  };
}

const manifest = readJson<Manifest>('package.json');
const languages = { en: readJson<Record<string, string>>('package.nls.json'), ru: readJson<Record<string, string>>('package.nls.ru.json') };

/**
 * What VS Code itself (its Chat, in English and in its Russian language pack) puts in the same
 * right-click menus: a GigaChat item with one of these labels could not be told from VS Code's.
 */
const VS_CODE_LABELS = [
  'Add Selection to Chat',
  'Add File to Chat',
  'Add Folder to Chat',
  'Add to Chat',
  'Explain',
  'Explain This',
  'Chat',
  'Generate Code',
  'Generate Docs',
  'Generate Tests',
  'Review',
  'Fix',
  'Добавить выделенное в чат',
  'Добавить выделенный фрагмент в чат',
  'Добавить файл в чат',
  'Добавить папку в чат',
  'Добавить в чат',
  'Объяснить',
  'Чат',
];

/** The right-click menus of the editor, its tabs and the explorer, where VS Code's Chat has items too. */
const CONTEXT_MENUS = ['editor/context', 'editor/title/context', 'explorer/context'];

const localized = (text: string, nls: Record<string, string>) => text.replace(/^%(.+)%$/, (_, key: string) => nls[key] ?? `(missing ${key})`);

/** Every label this extension adds to the context menus, with the submenus' items, in one language. */
function contextLabels(nls: Record<string, string>): { top: string[]; all: string[] } {
  const title = (item: MenuItem) =>
    item.submenu
      ? localized(manifest.contributes.submenus.find((s) => s.id === item.submenu)?.label ?? '', nls)
      : localized(manifest.contributes.commands.find((c) => c.command === item.command)?.title ?? '', nls);
  const topItems = CONTEXT_MENUS.flatMap((menu) => manifest.contributes.menus[menu] ?? []);
  const nestedItems = topItems.flatMap((item) => (item.submenu ? manifest.contributes.menus[item.submenu] : []));
  return { top: topItems.map(title), all: [...topItems, ...nestedItems].map(title) };
}

describe('GigaChat named on what it adds', () => {
  for (const [language, nls] of Object.entries(languages)) {
    it(`no right-click item of GigaChat reads as one of VS Code's own (${language})`, () => {
      const { all } = contextLabels(nls);
      assert.ok(all.length >= 4, `found ${all.join(', ')}`);
      const own = new Set(VS_CODE_LABELS.map((label) => label.toLowerCase()));
      assert.deepEqual(
        all.filter((label) => own.has(label.toLowerCase())),
        [],
      );
    });

    it(`each right-click item says GigaChat where it shows, as a GigaChat submenu or in its title (${language})`, () => {
      assert.deepEqual(
        contextLabels(nls).top.filter((label) => !label.includes('GigaChat')),
        [],
      );
    });
  }
});

describe('the walkthrough', () => {
  const steps = manifest.contributes.walkthroughs[0].steps;

  it('has each markdown page in English and in Russian, and the files exist', () => {
    for (const step of steps) {
      if (!step.media.markdown) continue;
      const en = localized(step.media.markdown, languages.en);
      const ru = localized(step.media.markdown, languages.ru);
      assert.notEqual(en, ru, `${step.id} has one page for both languages`);
      for (const file of [en, ru]) assert.ok(fs.existsSync(path.join(root, file)), `${file} is missing`);
    }
    for (const step of steps) if (step.media.svg) assert.ok(fs.existsSync(path.join(root, step.media.svg)), step.media.svg);
  });

  it("gets the key from the same page as the extension's buttons", () => {
    for (const nls of Object.values(languages)) assert.ok(nls['walkthrough.getKey.description'].includes(`(${GIGACHAT_API_PAGE})`));
  });
});
