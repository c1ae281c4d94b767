import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { plainLabel } from '../../../src/host/plainLabel';
import { pluralFormCount } from '../../../src/shared/messageFormat';
import { webviewStrings } from '../../../src/shared/strings';

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** A string literal in single or double quotes; its text is the first or the second group. */
const LITERAL = /'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"/;
/** `l10n.t(` or `countMessage(` and its first argument: a string literal, or several joined with `+` (a long message). */
const L10N_CALL = new RegExp(`(?:l10n\\.t|countMessage)\\(\\s*((?:(?:${LITERAL.source})\\s*\\+\\s*)*(?:${LITERAL.source}))`, 'g');

/** Every `vscode.l10n.t('…')` and `countMessage('…')` message in the extension's sources (string literal first argument). */
function runtimeMessages(): string[] {
  const messages = new Set<string>();
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (file.endsWith('.ts')) {
        for (const [, argument] of read(file).matchAll(L10N_CALL)) {
          const parts = [...argument.matchAll(new RegExp(LITERAL.source, 'g'))].map(([, single, double]) => single ?? double);
          messages.add(parts.join('').replace(/\\(.)/g, '$1'));
        }
      }
    }
  };
  visit('src');
  return [...messages];
}

/** `{0}` and `{0|…}` (a count), by index: what a translation must keep. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\d+)(\|)?/g)].map(([, index, count]) => (count ? `{${index}|…}` : `{${index}}`)).sort();
}

/** The forms of each count of a message. */
function countForms(text: string): string[][] {
  return [...text.matchAll(/\{\d+\|([^{}]*)\}/g)].map(([, forms]) => forms.split('|'));
}

describe('localization (English and Russian)', () => {
  const russian = JSON.parse(read('media/l10n/bundle.l10n.ru.json')) as Record<string, string>;

  it('has a Russian translation of every runtime message of the host', () => {
    const messages = runtimeMessages();
    assert.ok(messages.length > 20, 'the scan found the messages');
    assert.deepEqual(
      messages.filter((m) => !russian[m]),
      [],
    );
  });

  it('writes no message that neutralizing would change (notify.ts runs plainLabel over the whole text it shows)', () => {
    const messages = [...runtimeMessages(), ...Object.values(webviewStrings), ...Object.values(russian)];
    assert.deepEqual(
      messages.filter((m) => plainLabel(m) !== m),
      [],
    );
  });

  it('has a Russian translation of every string of the chat view', () => {
    assert.deepEqual(
      Object.values(webviewStrings).filter((m) => !russian[m]),
      [],
    );
  });

  it('keeps placeholders in translations, a count as a count', () => {
    for (const [english, translated] of Object.entries(russian)) {
      assert.deepEqual(placeholders(translated), placeholders(english), english);
    }
  });

  it('gives each count the forms of its language: English two, Russian four (or one where no word agrees)', () => {
    const wrong = (messages: string[], language: string) =>
      messages.flatMap((message) =>
        countForms(message)
          .filter((forms) => forms.length !== 1 && forms.length !== pluralFormCount(language))
          .map(() => message),
      );
    assert.deepEqual(wrong(Object.keys(russian), 'en'), []);
    assert.deepEqual(wrong(Object.values(russian), 'ru'), []);
    assert.deepEqual(wrong(Object.values(webviewStrings), 'en'), []);
  });

  it('translates every %key% of the manifest in both nls files', () => {
    const keys = [...read('package.json').matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]);
    const english = JSON.parse(read('package.nls.json')) as Record<string, string>;
    const ru = JSON.parse(read('package.nls.ru.json')) as Record<string, string>;
    assert.ok(keys.length > 10);
    assert.deepEqual(
      keys.filter((k) => !english[k] || !ru[k]),
      [],
    );
    assert.deepEqual(Object.keys(english).sort(), Object.keys(ru).sort());
  });
});
