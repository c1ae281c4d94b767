import * as vscode from 'vscode';
import { HELP_PAGES, isHelpPage, type HelpPage } from './helpPageNames';

/** Each page's title as the picker lists it. */
export function helpPageTitle(page: HelpPage): string {
  const titles: Record<HelpPage, () => string> = {
    chat: () => vscode.l10n.t('Chat, Explain, pictures and documents'),
    key: () => vscode.l10n.t('Authorization key and account'),
    search: () => vscode.l10n.t('Semantic search and codebase context'),
    completions: () => vscode.l10n.t('Completions as you type'),
    sourceControl: () => vscode.l10n.t('Commit messages and reviews'),
    vscodeChat: () => vscode.l10n.t("GigaChat in VS Code's Chat and Agent mode"),
    network: () => vscode.l10n.t('Certificates, proxies and company networks'),
    settings: () => vscode.l10n.t('Settings'),
    troubleshooting: () => vscode.l10n.t('Troubleshooting'),
  };
  return titles[page]();
}

/** The page's file in the language of VS Code's interface (English for any language but Russian). */
export function helpPageUri(extensionUri: vscode.Uri, page: HelpPage): vscode.Uri {
  const suffix = vscode.env.language.startsWith('ru') ? '.ru.md' : '.md';
  return vscode.Uri.joinPath(extensionUri, 'media', 'docs', `${page}${suffix}`);
}

/** Opens `page` in the Markdown preview. */
export async function openHelpPage(extensionUri: vscode.Uri, page: HelpPage): Promise<void> {
  await vscode.commands.executeCommand('markdown.showPreview', helpPageUri(extensionUri, page));
}

/**
 * *GigaChat: Help*: the page named (the walkthrough's links name one), or the one the user picks.
 * Anything else passed in (a command link's argument is the user's to write) is not trusted as a
 * page name: the picker opens instead.
 */
export async function showHelp(extensionUri: vscode.Uri, page?: unknown): Promise<void> {
  const chosen = isHelpPage(page)
    ? page
    : (
        await vscode.window.showQuickPick(
          HELP_PAGES.map((id) => ({ id, label: helpPageTitle(id) })),
          { title: vscode.l10n.t('GigaChat Help'), placeHolder: vscode.l10n.t('Which part of GigaChat?') },
        )
      )?.id;
  if (chosen) await openHelpPage(extensionUri, chosen);
}
