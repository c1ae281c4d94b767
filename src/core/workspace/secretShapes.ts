/**
 * Text that looks like a secret, wherever it is about to be sent: a private key's PEM block (its
 * `BEGIN`/`END` line, or its body: lines of base64 alone), and the shapes of well-known tokens.
 * A key withholds the file that holds it (masking a key's lines would still send the rest of it);
 * a token is masked in place, so the line around it still reads.
 */

const PRIVATE_KEY_MARKER = /-----(?:BEGIN|END) [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/;
/** A line of a PEM body: base64 alone, as long as PEM writes it (64 characters; 70 for OpenSSH). */
const KEY_BODY_LINE = /^[A-Za-z0-9+/]{60,76}={0,2}$/;
/** Three such lines in a row: key material, even with no marker in sight (a change in the middle of a key). */
const KEY_BODY_RUN = 3;

/** Whether these lines (a diff's, with their ' ', '+' or '-' prefix stripped) hold any of a private key. */
export function holdsPrivateKey(lines: readonly string[]): boolean {
  let run = 0;
  for (const line of lines) {
    if (PRIVATE_KEY_MARKER.test(line)) return true;
    run = KEY_BODY_LINE.test(line.trim()) ? run + 1 : 0;
    if (run >= KEY_BODY_RUN) return true;
  }
  return false;
}

/** The masked part's stand-in: the model (and a person reading the request) sees that something was there. */
export const MASK = '«masked»';

/** Each shape: what it matches, and the group (1) kept in front of the masked value, if any. */
const TOKEN_SHAPES: readonly RegExp[] = [
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key id
  /(\baws_secret_access_key\s*[=:]\s*["']?)[A-Za-z0-9/+=]{20,}/gi,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{40,}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
  // `password = "…"` in code: a string literal assigned to a password.
  /(\b(?:password|passwd|pwd)["']?\s*[=:]\s*)(["'])[^"'\n]{3,}\2/gi,
  // `password=…` in a config file (`.env`, `.ini`, `.properties`): the rest of the line, when it reads as a value, not as code
  // (nor as a literal the shape above masked already: `password: «masked»,`).
  /^([+\- ]?\s*[\w.-]*(?:password|passwd|pwd)\s*[=:]\s*)(?!«masked»)[^\s"'(){};=]+$/gim,
];

/** `text` with every token shape masked, and how many were. */
export function maskTokens(text: string): { text: string; masked: number } {
  let masked = 0;
  let result = text;
  for (const shape of TOKEN_SHAPES) {
    result = result.replace(shape, (_match, kept: unknown) => {
      masked += 1;
      return `${typeof kept === 'string' ? kept : ''}${MASK}`;
    });
  }
  return { text: result, masked };
}

/** What a tool's result says of its masked values (the model reads it, and the user in the tool's result): '' for none. */
export function maskedNote(masked: number): string {
  return masked > 0 ? ` [masked: ${masked} ${masked === 1 ? 'value looks' : 'values look'} like a token or password, shown as ${MASK}; not sent.]` : '';
}

/** The first `maxChars` of `text`, masked first so that the cut never leaves part of a token; whether it was cut. */
export function maskedHead(text: string, maxChars: number): { text: string; masked: number; trimmed: boolean } {
  const { text: sendable, masked } = maskTokens(text);
  const trimmed = sendable.length > maxChars;
  return { text: trimmed ? sendable.slice(0, maxChars) : sendable, masked, trimmed };
}
