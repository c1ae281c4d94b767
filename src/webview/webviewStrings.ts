import { formatMessage, type MessageArgument } from '../shared/messageFormat';
import { webviewStrings, type WebviewStrings } from '../shared/strings';

/**
 * The localized strings the host put into `<body data-strings>`. Unknown keys and non-string values
 * are ignored and missing keys fall back to English, so a malformed attribute degrades to English
 * rather than to empty labels.
 */
export function loadStrings(source: string | undefined = document.body.dataset.strings): WebviewStrings {
  // Built as a plain record: WebviewStrings keeps the readonly flags of the `as const` source.
  const strings: Record<keyof WebviewStrings, string> = { ...webviewStrings };
  if (!source) return strings;
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch {
    console.warn('[gigachat] data-strings is not valid JSON; using English');
    return strings;
  }
  if (typeof parsed !== 'object' || parsed === null) return strings;
  for (const key of Object.keys(webviewStrings) as (keyof WebviewStrings)[]) {
    const value = (parsed as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') strings[key] = value;
  }
  return strings;
}

/** Fills `{0}` placeholders and `{0|# file|# files}` counts (see `shared/messageFormat.ts`) in the UI language. */
export function format(template: string, ...args: MessageArgument[]): string {
  return formatMessage(uiLocale(), template, args);
}

/** The VS Code UI language the host put on `<html lang>`, for dates and numbers. */
export function uiLocale(): string | undefined {
  const lang = document.documentElement.lang;
  if (!lang) return undefined;
  try {
    return Intl.getCanonicalLocales(lang)[0];
  } catch {
    return undefined;
  }
}
