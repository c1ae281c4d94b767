import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMAND_NAMES, commandId } from '../../../src/host/commands';

interface Setting {
  markdownDescription?: string;
  description?: string;
  order?: number;
}
interface Category {
  id: string;
  title: string;
  properties: Record<string, Setting>;
}

const read = (file: string) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8')) as Record<string, unknown>;
const categories = (read('package.json') as { contributes: { configuration: Category[] } }).contributes.configuration;
const english = read('package.nls.json') as Record<string, string>;
const russian = read('package.nls.ru.json') as Record<string, string>;

/**
 * The title the Settings editor shows for a setting, as VS Code works it out (settingKeyToDisplayFormat
 * in its settingsTreeModels.ts): the key's last part in words, after the rest of the key with what it
 * shares with the category's id taken off. An extension cannot give a title of its own (microsoft/vscode#150891).
 */
function shownTitle(key: string, categoryId: string): string {
  const dot = key.lastIndexOf('.');
  const prefix = trimCategory(key.slice(0, dot), categoryId);
  const words = (text: string) =>
    text
      .replace(/\.([a-z0-9])/g, (_, letter: string) => ` › ${letter.toUpperCase()}`)
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/^[a-z]/, (letter) => letter.toUpperCase());
  return prefix ? `${words(prefix)}: ${words(key.slice(dot + 1))}` : words(key.slice(dot + 1));
}

function trimCategory(prefix: string, categoryId: string): string {
  for (const fromEnd of [true, false]) {
    const parts = categoryId.split('.');
    while (parts.length) {
      const shared = new RegExp(`^${parts.join('\\.')}(\\.|$)`, 'i');
      if (shared.test(prefix)) return prefix.replace(shared, '');
      if (fromEnd) parts.pop();
      else parts.shift();
    }
  }
  return prefix;
}

/** What the Settings editor shows of the extension's settings: grouped, titled, described in English and Russian. */
describe('the settings as the Settings editor shows them', () => {
  const settings = categories.flatMap((category) => Object.entries(category.properties).map(([key, setting]) => ({ key, setting, category })));

  it('puts every setting in one of the categories Connection, Chat, Completions, Source Control and Semantic Search, in a set order', () => {
    assert.deepEqual(
      categories.map((category) => english[category.title.slice(1, -1)]),
      ['Connection', 'Chat', 'Completions', 'Source Control', 'Semantic Search'],
    );
    for (const category of categories) {
      const orders = Object.values(category.properties).map((setting) => setting.order);
      assert.deepEqual(
        orders,
        orders.map((_, index) => index + 1),
        `${category.id}: settings without an order are sorted by key`,
      );
    }
  });

  it('gives every category and setting a title and a description in English and Russian', () => {
    const texts = [...categories.map((category) => category.title), ...settings.map(({ setting }) => setting.markdownDescription ?? setting.description ?? '')];
    for (const text of texts) {
      const key = /^%(.+)%$/.exec(text)?.[1];
      assert.ok(key, `"${text}" is not translated: it should be a %key% of package.nls.json`);
      assert.ok(english[key]?.trim(), `${key} has no English text`);
      assert.ok(russian[key]?.trim() && russian[key] !== english[key], `${key} has no Russian text`);
    }
  });

  // Browsing a group, the title loses what the key shares with the group's id. Search results (the
  // extension's gear → Settings is a search) prefix every title with the key's first part as VS Code
  // spells it, "Gigachat:", which only another key could change.
  it('titles a setting in its group without the brand spelled "Gigachat" and without the key\'s section', () => {
    const titles = settings.map(({ key, category }) => shownTitle(key, category.id));
    assert.deepEqual(
      titles.filter((title) => /gigachat|:/i.test(title)),
      [],
    );
    assert.equal(shownTitle('gigachat.completions.model', 'gigachat.completions'), 'Model');
  });

  it('links only to commands the extension contributes, the key and the connection check among them', () => {
    const linked = Object.entries(english)
      .filter(([key]) => key.startsWith('config.'))
      .flatMap(([, text]) => [...text.matchAll(/\(command:([\w.]+)\)/g)].map((match) => match[1]));
    assert.ok(linked.includes(commandId('setAuthorizationKey')) && linked.includes(commandId('checkConnection')));
    assert.deepEqual(
      linked.filter((id) => !COMMAND_NAMES.map(commandId).includes(id)),
      [],
    );
  });

  it('suggests known models for the model settings and still takes any name', () => {
    for (const key of ['gigachat.model', 'gigachat.completions.model', 'gigachat.embeddingsModel']) {
      const setting = settings.find((entry) => entry.key === key)?.setting as {
        type?: string;
        enum?: unknown;
        anyOf?: { enum?: string[]; enumDescriptions?: string[]; type?: string }[];
      };
      assert.equal(setting.type, 'string', `${key} is a text box`);
      assert.equal(setting.enum, undefined, `${key} would be a closed list`);
      const [suggested, free] = setting.anyOf ?? [];
      assert.ok(suggested?.enum?.length && suggested.enumDescriptions?.length === suggested.enum.length, `${key} suggests models, each described`);
      assert.deepEqual(free, { type: 'string' }, `${key} takes any model name`);
    }
  });
});
