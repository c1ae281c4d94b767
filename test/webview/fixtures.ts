import type { HostMessage, ImageAttachment, Turn } from '../../src/shared/protocol';
import * as zlib from 'node:zlib';
import { WIDE_TABLE } from '../emulator/replies';

/** Host messages and replies the webview tests and the benchmark use. */

export type StateMessage = Extract<HostMessage, { type: 'state' }>;

export function state(overrides: Partial<StateMessage> = {}): StateMessage {
  return {
    type: 'state',
    hasKey: true,
    conversationId: 'c1',
    turns: [],
    earlierTurns: 0,
    earlierQuestions: [],
    busy: false,
    models: ['GigaChat-2', 'GigaChat-2-Pro', 'GigaChat-2-Max'],
    model: 'GigaChat-2-Pro',
    draft: '',
    attachments: [],
    ...overrides,
  };
}

export function userTurn(id: string, content: string, extra: Partial<Turn> = {}): Turn {
  return { id, role: 'user', content, status: 'done', ...extra };
}

export function assistantTurn(id: string, content: string, extra: Partial<Turn> = {}): Turn {
  return { id, role: 'assistant', content, status: 'done', ...extra };
}

/** A table wider than a narrow panel (the emulator's), between prose with a long identifier and address that must still wrap. */
export const wideTable = [
  'Сравнение алгоритмов сортировки:',
  ...WIDE_TABLE,
  '',
  'A long identifier outside the table still wraps: `ThisIsAVeryLongIdentifierNameThatWouldOtherwiseOverflowTheNarrowPanelCompletely` and https://example.com/a/very/long/address/that/goes/on/and/on/without/any/spaces/at/all.',
].join('\n');

export const EXPLAIN_PROMPT = 'Explain this code from src/retry.ts (lines 2–4, typescript): what it does, how, and anything surprising.';
export const EXPLAIN_CODE = '  for (let i = 0; i < attempts; i++) {\n    if (upload(file)) return true;\n  }';

/** An Explain Selection question as the host sends it: the prompt the model got, and what it explains. */
export function explainQuestion(id = 'u1'): Turn {
  return userTurn(id, `${EXPLAIN_PROMPT}\n\n\`\`\`typescript\n${EXPLAIN_CODE}\n\`\`\``, {
    contextLabel: 'retry.ts:2–4',
    explained: { file: 'src/retry.ts', first: 2, last: 4, language: 'typescript', code: EXPLAIN_CODE },
  });
}

/** A reply using most of what models write: every kind of block, nested lists, fences in lists… */
export const richReply = `## Как читать файл построчно

В Node.js удобнее всего использовать модуль \`readline\` вместе с потоком. Это **не загружает** весь файл в память,
а _обрабатывает_ его по частям. Подробнее: https://nodejs.org/api/readline.html и [документация](https://nodejs.org/api/fs.html).

\`\`\`ts
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export async function countLines(path: string): Promise<number> {
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  let count = 0;
  for await (const _line of lines) count++; // one line at a time
  return count;
}
\`\`\`

Основные шаги:

1. Откройте поток чтения.
2. Создайте интерфейс \`readline\`.
3. Переберите строки в цикле \`for await\`.

- Плюсы:
  - низкое потребление памяти;
  - работает с файлами любого размера.
- Минусы:

  - чуть больше кода, чем \`fs.readFileSync\`.

> **Совет.** Для CSV лучше взять готовый парсер.
> Он учтёт кавычки и переводы строк внутри полей.

| Способ | Память | Скорость |
|:-------|:------:|---------:|
| \`readFileSync\` | O(n) | быстро |
| \`readline\` | O(1) | средне |

---

Пример на Python:

~~~python
with open("data.txt", encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        print(number, line.rstrip())
~~~

1. Список с кодом внутри:

   \`\`\`bash
   wc -l data.txt

   echo done
   \`\`\`

2. И продолжение списка после пустой строки.

#### Итог
Готово! Если нужно, покажу вариант с \`fs/promises\`.`;

/** A reply about as long as the benchmark wants, made of varied blocks. */
export function longReply(targetChars: number): string {
  const parts: string[] = [];
  let index = 0;
  while (parts.join('\n\n').length < targetChars) {
    index++;
    parts.push(
      `### Раздел ${index}`,
      `Это абзац номер ${index} с **выделением**, \`кодом\` и ссылкой https://example.com/page/${index}. ` +
        'Streaming text arrives a few characters at a time, and the view must keep up without redrawing everything it has ' +
        'already shown, so the cost stays proportional to what is new.',
      `- пункт первый ${index}\n- пункт второй с _курсивом_\n- пункт третий`,
      '```python\n' + `def section_${index}(items):\n    total = 0\n    for item in items:\n        total += item * ${index}\n    return total\n` + '```',
    );
  }
  return parts.join('\n\n');
}

/** Splits text into random pieces of 1..maxPiece characters (seeded, so failures repeat). */
export function randomSplits(text: string, maxPiece: number, seed: number): string[] {
  let state = seed >>> 0 || 1;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    const size = 1 + Math.floor(random() * maxPiece);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** Splits text into pieces of exactly `size` characters (the last one shorter). */
export function fixedSplits(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/**
 * A picture as the host hands over a stored one: the address the view loads it from, here a file
 * the harness serves (test/webview/harness.ts): a 1×1 PNG, or a gradient of `size` for screenshots.
 */
export function servedPicture(origin: string, fileId: string, size?: { width: number; height: number }): ImageAttachment {
  return { fileId, src: `${origin}/images/${size ? `gradient-${size.width}x${size.height}` : 'tiny'}.png` };
}

/** A 1×1 PNG. */
export const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A width×height PNG with a soft gradient, for screenshots (built here: the tests load no files). */
export function gradientPng(width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0;
    for (let x = 0; x < width; x++) {
      const at = row + 1 + x * 3;
      raw[at] = Math.round(40 + (180 * x) / width);
      raw[at + 1] = Math.round(120 + (100 * y) / height);
      raw[at + 2] = Math.round(200 - (120 * x) / width);
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png;
}

/** Replies with the constructs where incremental rendering could go wrong. */
export const streamingCorpus: string[] = [
  richReply,
  'para one\nstill para one\n\n    indented code\n\n    more code\n\nafter code\n\n\n\nafter blank lines',
  '1. a\n\n2. b\n\n   continued b\n\n3. c\n10. d\n\ntext after the list\n\n* x\n* y\n\n- z\n+ w',
  '> quote\n\n> second quote\nlazy line\n\n>> nested\n\nout',
  '# H1\ntext under\n## H2\n```\ncode\n```\nafter fence\n~~~\n~~~ not closing\n```\n~~~\ntail\n````md\n```\ninner\n```\n````\nend',
  'Setext\n===\n\ntext\n---\n\n***\n\n- - -\n\nTitle two\n---',
  'Col A | Col B\n--- | ---:\na | b\nc | d\n\n| not | a table\n\n|x|\n|-|\n|y|',
  'Links: www.example.com, https://example.com/a_b_c(d), a@b.com, <https://x.org/"q">, [t](https://t.me "title").\n\n' +
    '**bold** *em* ***both*** ~~strike~~ `code` \\*escaped\\* &amp; &copy; &#x41; <b>raw</b> <!-- c -->\n\n' +
    'hard break  \nnext line\\\nand another',
  'Русский текст с «кавычками» — и тире… Emoji 😀 и 中文.\n\n- [ ] not a task list\n- ![img](https://e.com/i.png) picture\n\n```js\nconst s = "строка";\n```',
  'Uses a reference [link][ref] and [another].\n\n[ref]: https://example.com/ref\n[another]: https://example.com/another "T"\n\nMore [link][ref].',
  '```\nunclosed fence\n\nwith blank lines\n   and indentation\n',
  '- item\n  ```ts\n  const inList = true;\n\n  const after = 1;\n  ```\n- next item\n\n      indented in list\n\nDone.',
  'para\n- x and more words\npara two\n-\n\n# foo # bar #\n\n## closing ##\n\n1 2. three\n12. twelve\n2. two cannot interrupt\n\nmail me at user@example.com or see https://example.com/path?q=1, e.g. http://a.b.\n\n' +
    '[a link](https://x.org "a title") and [broken](https://x.org "title\n\nnot a title) text (with parens) done.\n\n> quote - with dash\n> - list in quote\n> more words here\n\nline with trailing spaces   \nnext; and a : colon: here = 5 + 3 - 1 % $ ^ { } @ ok\n\n' +
    'Title\n=\n\nTitle\n= =\n\n--- x\n\n- - -\n\n* * *\n\n+ plus item\n+\n\n1) paren list\n\n```\n```\n\n````\n```js\nconsole.log("inner");\n```\n````',
  'Fence right at the start:\n```py\nprint("a")\n\n\n   \n  x = 1\n```\n```\nsecond fence directly after\n```\ntext\n~~~~\ncode with ``` inside\n~~~\n~~~~~\nafter',
];
