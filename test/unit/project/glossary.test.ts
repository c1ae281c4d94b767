import * as assert from 'node:assert/strict';
import { repoRoot as root } from '../support/repoRoot';
import * as fs from 'node:fs';
import * as path from 'node:path';

const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The glossary's forbidden variants: the backticked items of each table row's last column (`\|` is a `|` in a Markdown table). */
function forbiddenVariants(): RegExp[] {
  const rows = read('media/l10n/GLOSSARY.md')
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| English'));
  return rows.flatMap((row) => {
    const last = row.split(/(?<!\\)\|/).at(-2) ?? '';
    return [...last.matchAll(/`([^`]+)`/g)].map(([, pattern]) => new RegExp(withLetterBoundaries(pattern.replaceAll('\\|', '|')), 'iu'));
  });
}

/**
 * `\b` in a JavaScript pattern knows only ASCII word characters, even with the `u` flag: it never
 * matches beside a Cyrillic letter, so `диалог\b` would let «диалога» through silently. The glossary
 * writes `\b`; the test reads it as a boundary between a letter or digit and anything else.
 */
function withLetterBoundaries(pattern: string): string {
  return pattern.replaceAll('\\b', '(?:(?<![\\p{L}\\p{N}])(?=[\\p{L}\\p{N}])|(?<=[\\p{L}\\p{N}])(?![\\p{L}\\p{N}]))');
}

/** Every Russian string a user reads: the runtime bundle, the manifest's, the README's Russian lines, and the walkthrough's and help's Russian pages. */
function russianTexts(): [string, string][] {
  const bundle = JSON.parse(read('media/l10n/bundle.l10n.ru.json')) as Record<string, string>;
  const manifest = JSON.parse(read('package.nls.ru.json')) as Record<string, string>;
  const readme = read('README.md')
    .split('\n')
    .map((line, index): [string, string] => [`README.md:${index + 1}`, line])
    .filter(([, line]) => /[а-яё]/i.test(line));
  return [
    ...Object.entries(bundle),
    ...Object.entries(manifest),
    ...readme,
    ...['media/walkthrough', 'media/docs'].flatMap((folder) =>
      fs
        .readdirSync(path.join(root, folder))
        .filter((name) => name.endsWith('.ru.md'))
        .map((name): [string, string] => [`${folder}/${name}`, read(`${folder}/${name}`)]),
    ),
  ];
}

describe('Russian glossary', () => {
  it('reads the forbidden variants from the glossary', () => {
    const variants = forbiddenVariants();
    assert.ok(variants.length > 20, `${variants.length} variants`);
    assert.ok(variants.some((variant) => variant.test('кеш')));
    assert.ok(!variants.some((variant) => variant.test('прокси-сервер')), 'a term is not its own forbidden variant');
  });

  it('catches a forbidden variant beside Cyrillic letters and in its other cases', () => {
    const variants = forbiddenVariants();
    const caught = (text: string) => variants.some((variant) => variant.test(text));
    for (const text of ['история диалога', 'ошибка при индексировании', 'см. в логе', 'в логах', 'Индексированные изменения', 'неиндексированные файлы'])
      assert.ok(caught(text), text);
    for (const text of ['каталог', 'диалоговое окно', 'блоге', 'индексация', 'проиндексированных файлов']) assert.ok(!caught(text), text);
  });

  it('no Russian string uses a variant the glossary forbids', () => {
    const variants = forbiddenVariants();
    const offenders = russianTexts().flatMap(([where, text]) =>
      variants.filter((variant) => variant.test(text)).map((variant) => `${where}: ${String(variant)} in "${text}"`),
    );
    assert.deepEqual(offenders, []);
  });
});
