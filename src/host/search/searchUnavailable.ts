import * as vscode from 'vscode';
import type { ErrorAction } from '../../shared/protocol';
import { commandId } from '../commands';
import { WORKBENCH_ACTIONS } from '../errors/errorActions';

/** Why the workspace cannot be searched: no folder, Restricted Mode, no key, indexing not agreed to, or not with the model the settings name now. */
export type SearchUnavailable = 'noFolder' | 'restricted' | 'noKey' | 'noConsent' | 'otherModel';

/**
 * Why the workspace cannot be searched, as every feature that searches it says so (the search
 * command, codebase context, `/search`, the search tool), with the one button that fixes it.
 */
export function unavailableMessage(kind: SearchUnavailable): { message: string; action: ErrorAction } {
  switch (kind) {
    case 'noFolder':
      return { message: vscode.l10n.t('Searching the workspace works on a folder: open one first.'), action: 'openFolder' };
    case 'restricted':
      return {
        message: vscode.l10n.t(
          "Searching the workspace is off in Restricted Mode: it would send this workspace's files to the GigaChat service. Trust the workspace to use it.",
        ),
        action: 'manageTrust',
      };
    case 'noKey':
      return { message: vscode.l10n.t('No GigaChat authorization key is set. Set one to start chatting.'), action: 'setKey' };
    case 'noConsent':
      return {
        message: vscode.l10n.t(
          'Searching the workspace needs its index, and indexing has not been allowed in this workspace yet, so nothing was sent. ' +
            'Index the workspace: you will see what would be sent to GigaChat and be asked first.',
        ),
        action: 'allowIndexing',
      };
    case 'otherModel':
      return {
        message: vscode.l10n.t(
          'The search index was built with another embeddings model than gigachat.embeddingsModel names now, so nothing was sent. ' +
            'Index the workspace again: you will see what it costs and be asked first.',
        ),
        action: 'allowIndexing',
      };
  }
}

/** The command that does what the button of `kind` does, for VS Code's chat, whose buttons run commands. */
export function unavailableCommand(kind: SearchUnavailable, title: string): vscode.Command {
  const commands: Record<SearchUnavailable, string> = {
    noFolder: WORKBENCH_ACTIONS.openFolder,
    restricted: WORKBENCH_ACTIONS.manageTrust,
    noKey: commandId('setAuthorizationKey'),
    // Asks first, with what would be sent, then indexes.
    noConsent: commandId('rebuildSearchIndex'),
    otherModel: commandId('rebuildSearchIndex'),
  };
  return { command: commands[kind], title };
}
