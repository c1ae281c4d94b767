// The service's own web tools, emulated. With `web_search` offered the model answers from pages
// it found: the text cites them with markers (`[sources=[2]]`) and the answer carries the pages by
// number, as the recorded production answer does; the found pages count as input tokens. With
// `url_content_extraction` offered, a URL in the question is "read" and the answer says so.
import { languageOf, quote } from './replies';

/** Tokens of the found pages the model reads (a recorded web answer's input was 23,767 tokens). */
export const WEB_PAGES_TOKENS = 20_000;

const SOURCES = {
  '1': { url: 'https://docs.python.org/3/whatsnew/index.html', title: 'What’s New in Python' },
  '2': { url: 'https://realpython.com/python-news/', title: 'Python News and Releases' },
  // An address with parentheses, as encyclopedias write them: a markdown link must not end at its `)`.
  '3': { url: 'https://en.wikipedia.org/wiki/Python_(programming_language)', title: 'Python (programming language)' },
};

export function webAnswer(question: string): { content: string; sources: typeof SOURCES } {
  const content =
    languageOf(question) === 'ru'
      ? [
          `**Ответ эмулятора из интернета** на вопрос «${quote(question, 120)}».`,
          '',
          '1. В новой версии ускорен JIT-компилятор [sources=[2]].',
          '2. Кодировка UTF-8 стала кодировкой по умолчанию [sources=[1, 2]].',
          '3. Фонд получил $1.5 million и $2 million на безопасность [sources=[2]].',
          '4. Языку больше тридцати лет [sources=[3]].',
        ]
      : [
          `**Emulated web answer** to "${quote(question, 120)}".`,
          '',
          '1. The JIT compiler got faster in the new release [sources=[2]].',
          '2. UTF-8 became the default encoding [sources=[1, 2]].',
          '3. The foundation received $1.5 million and $2 million for security [sources=[2]].',
          '4. The language is over thirty years old [sources=[3]].',
        ];
  return { content: content.join('\n'), sources: SOURCES };
}

/** Lines that say which pages of the question were read. */
export function pageReadLines(question: string): string {
  const urls = question.match(/https?:\/\/[^\s)>\]]+/g) ?? [];
  if (urls.length === 0) return '';
  const heading = languageOf(question) === 'ru' ? 'Прочитанные страницы:' : 'Pages read:';
  return ['', '', heading, ...urls.map((url) => `- ${url}`)].join('\n');
}
