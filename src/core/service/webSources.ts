import type { BuiltInTool, Sources } from './schemas';

/**
 * The pages a web answer cites. The service's text carries markers such as `[sources=[2]]` or
 * `[sources=[1, 2]]`, and the reply the pages by number: a marker becomes numbered links to its
 * pages (`[[2]](https://…)`), or the bare numbers while the pages are not known yet (they come
 * with the end of a streamed reply). Only http(s) pages are linked; any other address is dropped.
 */
const MARKER = /\s?\[sources=\[([\d,\s]*)\]\]/g;

/** The service's tools a question asked with web search gets: the search, and reading the pages it names. */
export function webSearchTools(question: string): BuiltInTool[] {
  return ['web_search', ...(/\bhttps?:\/\/\S/i.test(question) ? (['url_content_extraction'] as const) : [])];
}

export interface WebSource {
  number: number;
  url: string;
  title: string;
  /** The site, as the list of sources names it beside the title. */
  host: string;
}

/** The sources a reply cites, in number order, with a readable title; only http(s) pages. */
export function webSourceList(sources: Sources | undefined): WebSource[] {
  return Object.entries(sources ?? {})
    .flatMap(([key, source]) => {
      const number = Number(key);
      const url = webAddress(source.url);
      if (!Number.isInteger(number) || number < 1 || !url) return [];
      const title = (source.title ?? '').replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE) || url.host;
      return [{ number, url: url.href, title, host: url.host.replace(/^www\./, '') }];
    })
    .sort((a, b) => a.number - b.number);
}

const MAX_TITLE = 200;

function webAddress(text: string): URL | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** A marker cites at most this many pages: one that repeats numbers or lists hundreds would bury the answer. */
const MAX_CITED = 5;
/** Longer addresses are not linked (the chat view's protocol takes none longer either, LIMITS.webAddress). */
export const MAX_LINKED_URL = 2_000;

/**
 * `url` as the destination of a Markdown link, `[text](…)`: the characters that would end it or
 * be read as Markdown (parentheses, angle brackets, spaces, backslashes) percent-encoded, so the
 * link is the whole address. Undefined for an address longer than MAX_LINKED_URL: show it as text.
 */
export function markdownLinkTarget(url: string): string | undefined {
  if (url.length > MAX_LINKED_URL) return undefined;
  // encodeURIComponent leaves parentheses as they are.
  return url.replace(/[()<>\\\s]/g, (c) => (c === '(' ? '%28' : c === ')' ? '%29' : encodeURIComponent(c)));
}

/** The text with each marker as numbered links to its sources (the bare numbers for those not known). */
export function linkSourceMarkers(text: string, sources: readonly WebSource[]): string {
  if (!text.includes('[sources=')) return text;
  const byNumber = new Map(sources.map((source) => [source.number, source]));
  return text.replace(MARKER, (_marker, numbers: string) => {
    const cited = new Set<number>();
    for (const n of numbers.split(',')) {
      const number = Number(n.trim());
      if (Number.isInteger(number) && number > 0) cited.add(number);
      if (cited.size === MAX_CITED) break;
    }
    const links = [...cited].map((n) => {
      const source = byNumber.get(n);
      const target = source && markdownLinkTarget(source.url);
      return target ? `[[${n}]](${target})` : `[${n}]`;
    });
    return links.length > 0 ? ` ${links.join('')}` : '';
  });
}

/** Every beginning of a marker: `[`, `[so`, `[sources=[1, 2`, `[sources=[2]`… */
const MARKER_START = /^\[(?:s(?:o(?:u(?:r(?:c(?:e(?:s(?:=(?:\[[\d,\s]*\]?)?)?)?)?)?)?)?)?)?$/;

/** The part of a streaming text that cannot be the start of a marker still arriving. */
export function stableSourcePrefix(text: string): string {
  // A marker has two brackets: the one that opens it may be the last or the one before.
  const last = text.lastIndexOf('[');
  for (const open of [text.lastIndexOf('[', last - 1), last]) {
    if (open !== -1 && MARKER_START.test(text.slice(open))) return text.slice(0, open);
  }
  return text;
}
