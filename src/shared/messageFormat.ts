/**
 * Fills a translated message's placeholders, giving each count the form of the words that agree
 * with it: "1 файл", "3 файла", "5 файлов", "21 файл" in Russian, "1 file", "3 files" in English.
 *
 * - `{0}` is replaced by its argument as it is (a name, a path, a line number, a size with its unit).
 * - `{0|# file|# files}` is a **count**: the argument is a number, and the form for its plural
 *   category is chosen, `#` in it becoming the number formatted for the locale ("2 400", "2,400").
 *   The forms follow the language's categories in CLDR order (zero, one, two, few, many, other),
 *   as `Intl.PluralRules` names them: English has two (one, other), Russian four (one: 1, 21;
 *   few: 2–4, 22; many: 0, 5–20, 25, 111; other: fractions). A single form (`{0|#}`) is for a
 *   number no word agrees with, such as one in parentheses: it is still formatted for the locale.
 *
 * The rule the unit test `messageCounts.test.ts` holds every message to: **a number given to a
 * message is a count, and its placeholder names its forms**. A number that is not a count (a line
 * number, an HTTP status, a size followed by its unit) is given as text, `String(line)`, and a count is
 * never turned into text before it reaches the message.
 */
export type MessageArgument = string | number;

/** The plural categories in the order translators write the forms of a count. */
const CATEGORY_ORDER: readonly Intl.LDMLPluralRule[] = ['zero', 'one', 'two', 'few', 'many', 'other'];

/** `{0}` or `{0|form|form…}`: the index, and the forms when it is a count. */
const PLACEHOLDER = /\{(\d+)(?:\|([^{}]*))?\}/g;

/** Fills `{n}` and `{n|forms}` in `template` (already translated) with `args`, for `locale` (a BCP 47 tag such as `ru` or `en-US`). */
export function formatMessage(locale: string | undefined, template: string, args: readonly MessageArgument[]): string {
  return template.replace(PLACEHOLDER, (match, index: string, forms: string | undefined) => {
    const value = args[Number(index)];
    if (value === undefined) return match;
    if (forms === undefined) return String(value);
    const count = typeof value === 'number' ? value : Number(value);
    return pluralForm(locale, count, forms.split('|')).replaceAll('#', formatNumber(locale, count));
  });
}

/** How many forms a count has in `locale`'s messages (2 for English, 4 for Russian). */
export function pluralFormCount(locale: string): number {
  return rulesFor(locale).resolvedOptions().pluralCategories.length;
}

/**
 * The form of `forms` for `count`. Forms that do not match the locale's categories were written for
 * another language (an English message shown in a Polish VS Code has no Russian bundle to come from),
 * so they are read with English rules.
 */
function pluralForm(locale: string | undefined, count: number, forms: string[]): string {
  if (forms.length === 1) return forms[0];
  const rules = forms.length === pluralFormCount(locale ?? 'en') ? rulesFor(locale) : rulesFor('en');
  const categories = CATEGORY_ORDER.filter((category) => rules.resolvedOptions().pluralCategories.includes(category));
  return forms[categories.indexOf(rules.select(count))] ?? forms[forms.length - 1];
}

// Made once per locale: the chat view formats counts each time it draws a reply.
const rules = new Map<string | undefined, Intl.PluralRules>();
const numbers = new Map<string | undefined, Intl.NumberFormat>();

function rulesFor(locale: string | undefined): Intl.PluralRules {
  return madeFor(rules, locale, (tag) => new Intl.PluralRules(tag));
}

function formatNumber(locale: string | undefined, count: number): string {
  return madeFor(numbers, locale, (tag) => new Intl.NumberFormat(tag)).format(count);
}

/** The formatter for `locale`, made on first use; English's when the tag is malformed (one must not break every message). */
function madeFor<T>(made: Map<string | undefined, T>, locale: string | undefined, make: (tag: string | undefined) => T): T {
  let formatter = made.get(locale);
  if (!formatter) {
    try {
      formatter = make(locale);
    } catch {
      formatter = make('en');
    }
    made.set(locale, formatter);
  }
  return formatter;
}
