// The "model": deterministic answers computed from the last user message. Same question, same
// answer, so tests can compare a streamed reply with a non-streamed one and snapshot renders.
// Markers in the prompt select special answers: [long] (render stress), [table] (a table wider than
// the chat panel), [blacklist] (topic filter),
// [call name {...}] (a function call: see function-calls.ts). After function results the answer
// quotes them, and files attached to the question are named in it.
import { longReply } from './long-reply';

export type Language = 'ru' | 'en';

export function languageOf(text: string): Language {
  return /[А-Яа-яЁё]/.test(text) ? 'ru' : 'en';
}

export function isBlacklisted(prompt: string): boolean {
  return prompt.includes('[blacklist]');
}

/** What the real model treats as a request for its built-in text2image function. */
export function wantsImage(prompt: string): boolean {
  return /\b(draw|picture|image|paint)/i.test(prompt) || /(нарисуй|картинк|изображени|рисун)/i.test(prompt);
}

/** Asked for a formula: GigaChat writes mathematics in LaTeX (even a count, `$1\\, 2\\, 3$`, as recorded). */
function mentionsFormula(prompt: string): boolean {
  return /formula|формул/i.test(prompt);
}

const FORMULA_LINES = [
  '',
  'The area of a circle is $S = \\pi r^2$, and its length is',
  '',
  '$$C = 2\\pi r$$',
  '',
  'A round table costs $1.5 million and $2 million.',
];

function mentionsCode(prompt: string): boolean {
  return /\bcode\b|\bfunction|код|функци/i.test(prompt);
}

/** The question as echoed back: one line, bounded, so a huge prompt gives a short answer. */
export function quote(prompt: string, limit = 200): string {
  const line = prompt.replace(/\s+/g, ' ').trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

/** The real service's own refusal wording for Russian; an English equivalent otherwise. */
export function blacklistReply(language: Language): string {
  return language === 'ru' ? 'Не люблю менять тему разговора, но вот сейчас тот самый случай.' : "I'd rather not talk about that. Let's change the subject.";
}

/** The text of a picture answer. */
export function imageReply(language: Language): string {
  return language === 'ru' ? 'Вот изображение по вашему запросу.' : 'Here is the picture you asked for.';
}

/** On the previous contract the picture comes as this tag in the text, for the client to download. */
export function imageTag(fileId: string): string {
  return `<img src="${fileId}" fuse="true"/>`;
}

/** What a reasoning model thinks before it answers. */
export function reasoningReply(language: Language, prompt: string): string {
  return language === 'ru'
    ? `Пользователь спрашивает: «${quote(prompt, 80)}». Отвечу заготовленным ответом эмулятора.`
    : `The user asks: "${quote(prompt, 80)}". I will answer with the emulator's prepared reply.`;
}

/** A comparison too wide for the chat panel, in words that split badly ("Алгор|итм", "сортир|овка"); the webview tests use it too. */
export const WIDE_TABLE = [
  '',
  '| Алгоритм | Средняя сложность | Худшая сложность | Память | Устойчивость | Примечание |',
  '|---|---|---|---|---|---|',
  '| Быстрая сортировка | O(n log n) | O(n²) | O(log n) | Неустойчивая | Быстрее всех на практике |',
  '| Сортировка слиянием | O(n log n) | O(n log n) | O(n) | Устойчивая | Хороша для связных списков |',
  '| Пирамидальная сортировка | O(n log n) | O(n log n) | O(1) | Неустойчивая | Без дополнительной памяти |',
];

const CODE_BLOCK = ['```typescript', 'function echo(question: string): string {', '  return `You asked: ${question}`;', '}', '```'].join('\n');

export function textReply(prompt: string): string {
  const language = languageOf(prompt);
  if (prompt.includes('[long]')) return longReply(language, quote(prompt));
  const lines =
    language === 'ru'
      ? [
          `**Ответ эмулятора.** Вы спросили: «${quote(prompt)}»`,
          '',
          '- Этот ответ пришёл от локального эмулятора GigaChat, а не от настоящей модели.',
          '- На один и тот же вопрос всегда приходит один и тот же ответ.',
        ]
      : [
          `**Emulated answer.** You asked: "${quote(prompt)}"`,
          '',
          '- This reply comes from the local GigaChat emulator, not from a real model.',
          '- The same question always gets the same answer.',
        ];
  if (mentionsFormula(prompt)) lines.push(...FORMULA_LINES);
  if (prompt.includes('[table]')) lines.push(...WIDE_TABLE);
  if (mentionsCode(prompt)) {
    lines.push('', language === 'ru' ? 'Пример кода:' : 'Here is an example:', '', CODE_BLOCK);
  }
  return lines.join('\n');
}

/** The text answer after function results: each one quoted, so a test can see the result reached the model. */
export function functionResultReply(language: Language, results: { name: string; content: string }[]): string {
  const lines = results.map(({ name, content }) =>
    language === 'ru' ? `Функция \`${name}\` вернула: ${quote(content, 1000)}` : `The function \`${name}\` returned: ${quote(content, 1000)}`,
  );
  return [language === 'ru' ? '**Ответ эмулятора.**' : '**Emulated answer.**', '', ...lines].join('\n');
}

/** Lines that name the files attached to the question (name, type, size), appended to the answer. */
export function attachmentLines(language: Language, files: { filename: string; contentType: string; bytes: number }[]): string {
  if (files.length === 0) return '';
  const heading = language === 'ru' ? 'Приложенные файлы:' : 'Attached files:';
  return ['', '', heading, ...files.map((file) => `- ${file.filename} (${file.contentType}, ${file.bytes} bytes)`)].join('\n');
}

/** max_tokens reached: cut the content at that many (estimated) tokens, on code points. */
export function truncateToTokens(content: string, maxTokens: number): string {
  return [...content].slice(0, maxTokens * 4).join('');
}
