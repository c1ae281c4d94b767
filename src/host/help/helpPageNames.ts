/**
 * The help pages shipped with the extension, one a feature: `media/docs/<page>.md` and, in Russian,
 * `<page>.ru.md`. They open in VS Code's Markdown preview, offline; the README links to the same
 * files. Imports nothing, so test/unit/host/help/helpPages.test.ts checks every page against this list.
 */
export const HELP_PAGES = ['chat', 'key', 'search', 'completions', 'sourceControl', 'vscodeChat', 'network', 'settings', 'troubleshooting'] as const;

export type HelpPage = (typeof HELP_PAGES)[number];

export function isHelpPage(value: unknown): value is HelpPage {
  return typeof value === 'string' && (HELP_PAGES as readonly string[]).includes(value);
}
