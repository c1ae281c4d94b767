import { endsInFencedCode } from './renderedLinks';

/**
 * Links in a model's markdown answer, as it streams: only web links (http, https) and links the
 * caller accepts (files of the workspace) stay links. The model is untrusted (text it read may
 * steer it), so `[x](file:///etc/passwd)`, `<vscode://vscode.git/clone?url=…>` or a reference
 * definition `[x]: command:…` must not be one click away. Such a construct is not removed but made
 * inert by one backslash, which CommonMark reads as an escape, so the reader still sees the
 * address: `](` becomes `]\(`, `<scheme:` becomes `\<scheme:`, a definition's `[` becomes `\[`.
 *
 * Fenced code blocks at the top level are left alone, byte for byte (`handlers[name](event)` in
 * code must not gain a backslash). Everything else is guarded, code spans and quoted or indented
 * code included: a guard that took text for code where the renderer does not (a code span may run
 * over several lines, a fence in a quote ends with it) would let a link through, while an escape
 * too many inside code only shows a backslash. Each line the guard takes for fenced code is
 * confirmed by a CommonMark parser reading all that was shown before it; a line the parser does
 * not see as code (a list's or a quote's rules decided otherwise) is guarded like the rest, and so
 * is every later fence of the answer. Only what
 * cannot be judged yet is held back (a destination not yet closed, a line's start that may open a
 * fence or hold a definition), at most `maxHeld` characters: past that, a link is made inert
 * unjudged. For any split into chunks, the output is the same as for the whole.
 */
export type AllowedTarget = (destination: string) => boolean;

/** What may be held back at once, in characters. */
export const MAX_HELD = 2_000;
/**
 * An answer longer than this has its fences guarded like the rest: confirming a line reads all
 * that was shown before it, which past this would cost more than a backslash shown in code.
 */
const MAX_CONFIRMED = 50_000;

/** Block quote and list markers a definition or a fence may stand behind. */
const CONTAINERS = String.raw`^(?:[ \t]*(?:>|[-+*]|\d{1,9}[.)])(?=[ \t]|$)[ \t]*)*[ \t]{0,3}`;
/** A fence line at the top level: its marker, and what follows it. */
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** A line that may be a reference definition: `[label]:`, and its destination when it is on this line. */
const DEFINITION = new RegExp(String.raw`${CONTAINERS}\[(?:\\.|[^\\\]])+\]:[ \t]*(<[^>\n]*>|\S+)?`);
/** A line's start that may still turn out to be a fence or a definition. */
const MAY_MATTER = new RegExp(String.raw`^ {0,3}[\x60~]|${CONTAINERS}\[|^[ \t>*+\-\d.)]*$`);
/** An autolink, `<scheme:…>`. */
const AUTOLINK = /^<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^<>\s]*)>/;
/** What may still become an autolink as more text arrives. */
const AUTOLINK_START = /^<(?:[A-Za-z][A-Za-z0-9+.-]{0,31}(?::[^<>\s]*)?)?$/;

export class LinkGuard {
  private pending = '';
  /** The fence the text is inside (its character and length), or undefined outside one. */
  private fence: { char: string; length: number } | undefined;
  private atLineStart = true;
  /** Fences are no longer skipped: one was misjudged in this answer. */
  private strict = false;
  /** Everything shown so far: the check of a fenced line reads it whole, as the renderer does. */
  private shown = '';

  constructor(
    private readonly allowed: AllowedTarget,
    private readonly maxHeld = MAX_HELD,
  ) {}

  /** The text that may be shown now, after `chunk`. */
  push(chunk: string): string {
    this.pending += chunk;
    return this.drain(false);
  }

  /** The rest, at the end of the answer: what is still open is judged as it stands. */
  end(): string {
    return this.drain(true);
  }

  private drain(final: boolean): string {
    let out = '';
    for (;;) {
      const step = this.atLineStart ? this.lineStart(final) : this.fence ? this.fenced(final) : this.inline(final);
      if (step === undefined) return out;
      out += step;
      this.shown += step;
    }
  }

  /** A line's start: a fence opening or closing, or a reference definition, is judged on the whole line. */
  private lineStart(final: boolean): string | undefined {
    if (this.pending === '') return undefined;
    const newline = this.pending.indexOf('\n');
    const line = newline === -1 ? this.pending : this.pending.slice(0, newline);
    if (newline === -1 && !final && line.length < this.maxHeld && MAY_MATTER.test(line)) return undefined;
    this.atLineStart = false;
    const fence = this.strict ? null : FENCE.exec(line);
    if (fence && this.confirmed(line) && this.isFenceLine(fence[1], fence[2])) return this.take(newline === -1 ? line.length : newline + 1);
    if (this.fence) return '';
    const definition = DEFINITION.exec(line);
    if (definition && !(definition[1] !== undefined && this.judge(definition[1].replace(/^<|>$/g, '')))) {
      // Escaped, it is no definition: a `[label]` elsewhere stays text. (A destination on the next line is never judged: always escaped.)
      const at = definition[0].indexOf('[');
      const head = this.pending.slice(0, at);
      this.pending = this.pending.slice(at + 1);
      return `${head}\\[`;
    }
    return '';
  }

  /** Whether a marker line opens or closes a fence, updating which fence the text is in. */
  private isFenceLine(marker: string, rest: string): boolean {
    if (!this.fence) {
      // A backtick fence's info string holds no backtick (else the line is text with code spans).
      if (marker[0] === '`' && rest.includes('`')) return false;
      this.fence = { char: marker[0], length: marker.length };
      return true;
    }
    if (marker[0] === this.fence.char && marker.length >= this.fence.length && rest.trim() === '') this.fence = undefined;
    return true;
  }

  /** Inside a fenced block: its lines, untouched, each once it is whole and the parser agrees it is code. */
  private fenced(final: boolean): string | undefined {
    const newline = this.pending.indexOf('\n');
    if (this.pending === '' || (newline === -1 && !final && this.pending.length < this.maxHeld)) return undefined;
    const line = this.pending.slice(0, newline === -1 ? this.pending.length : newline + 1);
    if (newline !== -1 && this.confirmed(line)) return this.take(line.length);
    // Not code as a renderer reads it (or a line too long to wait for): guarded, and no fence is trusted again.
    this.fence = undefined;
    this.atLineStart = true;
    return '';
  }

  /** Whether a renderer reads `line`, after what was shown, as fenced code; if not, fences are guarded from now on. */
  private confirmed(line: string): boolean {
    if (!this.strict && this.shown.length < MAX_CONFIRMED && endsInFencedCode(this.shown + line)) return true;
    this.strict = true;
    return false;
  }

  /** Outside a fence: plain text goes at once; `](` or `<` is held until it can be judged. */
  private inline(final: boolean): string | undefined {
    const text = this.pending;
    if (text === '') return undefined;
    const at = text.search(/[\]<\\\n]/);
    if (at === -1) return this.take(text.length);
    if (at > 0) return this.take(at);
    switch (text[0]) {
      case '\n':
        return this.take(1);
      case '\\':
        // An escape and what it escapes go together: `\]` opens nothing (nor does it in a code span, where `]` then stands alone).
        return text.length > 1 || final ? this.take(Math.min(2, text.length)) : undefined;
      case ']':
        return this.inlineLink(final);
      default:
        return this.autolink(final);
    }
  }

  /** `](destination`: kept when the destination is allowed, escaped to `]\(` otherwise. */
  private inlineLink(final: boolean): string | undefined {
    const text = this.pending;
    if (text.length < 2) return final ? this.take(1) : undefined;
    if (text[1] !== '(') return this.take(1);
    const destination = readDestination(text.slice(2));
    if (destination === undefined && !final && text.length < this.maxHeld) return undefined;
    if (destination !== undefined && this.judge(destination)) return this.take(2);
    this.pending = text.slice(2);
    return ']\\(';
  }

  /** `<scheme:…>`: kept when allowed, escaped to `\<` otherwise. */
  private autolink(final: boolean): string | undefined {
    const text = this.pending;
    const match = AUTOLINK.exec(text);
    if (!match) return !final && text.length < this.maxHeld && AUTOLINK_START.test(text) ? undefined : this.take(1);
    if (this.judge(match[1])) return this.take(match[0].length);
    this.pending = text.slice(1);
    return '\\<';
  }

  /** Whether a destination may stay a link: as a renderer reads it (escapes and character references decoded). */
  private judge(destination: string): boolean {
    // eslint-disable-next-line no-control-regex -- control characters are what is stripped
    const plain = decodeEntities(destination.replace(/\\(.)/g, '$1')).replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
    return /^https?:\/\//i.test(plain) || this.allowed(plain);
  }

  /** Emits the first `length` characters; after a line break the next line's start is judged. */
  private take(length: number): string {
    const taken = this.pending.slice(0, length);
    this.pending = this.pending.slice(length);
    if (taken.endsWith('\n')) this.atLineStart = true;
    return taken;
  }
}

/** The whole text at once (what the stream gives, whatever its chunks). */
export function guardLinks(markdown: string, allowed: AllowedTarget): string {
  const guard = new LinkGuard(allowed);
  return guard.push(markdown) + guard.end();
}

/**
 * The destination at the start of `text` (what follows `](`), once it is complete: `<…>`, or up
 * to white space or the `)` that balances; undefined while it may still grow.
 */
function readDestination(text: string): string | undefined {
  const rest = text.trimStart();
  if (rest.startsWith('<')) {
    const close = rest.search(/[>\n]/);
    return close === -1 ? undefined : rest.slice(1, close);
  }
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i];
    if (char === '\\') i++;
    else if (char === '(') depth++;
    else if (char === ')' && depth-- === 0) return rest.slice(0, i);
    else if (/\s/.test(char)) return rest.slice(0, i);
  }
  return undefined;
}

/** HTML character references, decoded as a markdown renderer decodes them in a destination (`file&#58;` is `file:`). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z][a-z0-9]*);/gi, (entity, body: string) => {
    if (body[0] !== '#') return NAMED[body.toLowerCase()] ?? entity;
    const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '\uFFFD';
  });
}

/** The named references that can spell a scheme or its punctuation. */
const NAMED: Record<string, string> = { colon: ':', sol: '/', period: '.', amp: '&', tab: '\t', newline: '\n', lpar: '(', rpar: ')' };
