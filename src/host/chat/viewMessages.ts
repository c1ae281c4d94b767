import { ViewMessage } from '../../shared/protocol';

/**
 * What the chat view sent, checked against the protocol before the host acts on it. The webview
 * runs model output and is the least trusted part of the extension, so anything else is dropped,
 * with a log line that says what was wrong. The line describes the message's shape only, never its
 * values: a malformed message may be megabytes long, or carry the user's text or a secret.
 * No `vscode` import: unit tests feed it a corpus of bad messages under plain Node.
 */
export type ParsedViewMessage = { ok: true; message: ViewMessage } | { ok: false; logLine: string };

const MAX_LOG_LINE = 400;
const MAX_KEYS = 8;
const MAX_ISSUES = 3;

export function parseViewMessage(raw: unknown): ParsedViewMessage {
  const parsed = ViewMessage.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issues = parsed.error.issues
    .slice(0, MAX_ISSUES)
    .map((issue) => `${issue.path.map((key) => safeName(String(key))).join('.') || '(message)'}: ${clip(issue.message, 80)}`)
    .join('; ');
  return { ok: false, logLine: clip(`Dropped a malformed message from the chat view: ${shapeOf(raw)}. ${issues}`, MAX_LOG_LINE) };
}

/** `{type: "send", text: string(300001 chars)}`: key names and value kinds, and the type if it is a plain word. */
export function shapeOf(value: unknown): string {
  if (Array.isArray(value)) return `array(${value.length} items)`;
  if (value === null || typeof value !== 'object') return kindOf(value);
  const keys = Object.keys(value);
  const fields = keys.slice(0, MAX_KEYS).map((key) => {
    const field = (value as Record<string, unknown>)[key];
    const shown = key === 'type' && typeof field === 'string' && /^[A-Za-z]{1,40}$/.test(field) ? JSON.stringify(field) : kindOf(field);
    return `${safeName(key)}: ${shown}`;
  });
  if (keys.length > MAX_KEYS) fields.push(`… ${keys.length - MAX_KEYS} more keys`);
  return `{${fields.join(', ')}}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `array(${value.length} items)`;
  if (typeof value === 'string') return `string(${value.length} chars)`;
  return typeof value;
}

/** Key names come from the sender too: only short identifiers are shown as they are. */
function safeName(key: string): string {
  return /^[\w$]{1,40}$/.test(key) ? key : `<key of ${key.length} chars>`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
