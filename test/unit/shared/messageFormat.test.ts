import * as assert from 'node:assert/strict';
import { repoRoot } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { formatMessage } from '../../../src/shared/messageFormat';

const russian = JSON.parse(fs.readFileSync(path.join(repoRoot, 'media/l10n/bundle.l10n.ru.json'), 'utf8')) as Record<string, string>;
const FILES = '{0|# file|# files} indexed';
const counts = [1, 2, 5, 11, 21, 22, 25, 111, 0];

/** What the status bar item says for each count, in `locale`, from the message as the bundle gives it. */
const said = (locale: string, template: string) => counts.map((count) => formatMessage(locale, template, [count]));

describe('counts in messages', () => {
  it('Russian: one, few and many as a native speaker says them (from the bundle)', () => {
    assert.deepEqual(said('ru', russian[FILES]), [
      'В индексе 1 файл',
      'В индексе 2 файла',
      'В индексе 5 файлов',
      'В индексе 11 файлов',
      'В индексе 21 файл',
      'В индексе 22 файла',
      'В индексе 25 файлов',
      'В индексе 111 файлов',
      'В индексе 0 файлов',
    ]);
  });

  it('Russian: a count after "из" takes the genitive the translation gives it', () => {
    const template = russian['{0|#} of {1|# file|# files} · {2|# chunk|# chunks} · {3|# request|# requests}'];
    assert.equal(formatMessage('ru', template, [1, 21, 3, 1]), '1 из 21 файла · 3 фрагмента · 1 запрос');
    assert.equal(formatMessage('ru', template, [4, 5, 12, 2]), '4 из 5 файлов · 12 фрагментов · 2 запроса');
  });

  it('English: one and other', () => {
    assert.deepEqual(said('en', FILES), [
      '1 file indexed',
      '2 files indexed',
      '5 files indexed',
      '11 files indexed',
      '21 files indexed',
      '22 files indexed',
      '25 files indexed',
      '111 files indexed',
      '0 files indexed',
    ]);
  });

  it('writes the number the locale’s way', () => {
    assert.equal(formatMessage('en', 'Show earlier messages ({0|#})', [2400]), 'Show earlier messages (2,400)');
    assert.equal(formatMessage('ru', russian['Show earlier messages ({0|#})'], [2400]), 'Показать предыдущие сообщения (2\u00a0400)');
  });

  it('reads English forms with English rules where VS Code speaks a language with no translation', () => {
    // Polish has four categories; the message, untranslated, has English's two.
    assert.deepEqual(
      [1, 2, 5].map((count) => formatMessage('pl', FILES, [count])),
      ['1 file indexed', '2 files indexed', '5 files indexed'],
    );
  });

  it('fills plain placeholders as they are, and leaves one without an argument', () => {
    assert.equal(formatMessage('ru', 'строка {0}, {1}', ['1234']), 'строка 1234, {1}');
  });
});
