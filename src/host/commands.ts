/**
 * The extension's commands, each named once; package.json contributes them as `gigachat.<name>`
 * (test/unit/project/manifest.test.ts checks that the two lists agree). This module imports nothing: the
 * activation bundle and the unit tests load it.
 */
export const COMMAND_NAMES = [
  'openChat',
  'newChat',
  'showChatHistory',
  'exportChat',
  'showLastAnswer',
  'explainSelection',
  'addSelectionToChat',
  'addFileToChat',
  'setAuthorizationKey',
  'clearAuthorizationKey',
  'showTokenBalance',
  'semanticSearch',
  'rebuildSearchIndex',
  'clearSearchIndex',
  'checkConnection',
  'trustRootCertificate',
  'addTrustedCertificate',
  'certificateHelp',
  'applyChange',
  'undoAgentTurn',
  'discardChange',
  'showReasoning',
  'completionsMenu',
  'setCompletionServerKey',
  'writeCommitMessage',
  'reviewChanges',
  'fixReviewFinding',
  'dismissReviewFinding',
  'help',
  'openSettings',
  'openWalkthrough',
  'useForUtilityModels',
  'stopUtilityModels',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];

/** The id VS Code knows a command by, as menus, keybindings and status bar items name it. */
export function commandId(name: CommandName): string {
  return `gigachat.${name}`;
}
