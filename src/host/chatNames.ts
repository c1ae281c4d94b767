/**
 * GigaChat's names in VS Code's Chat, each declared once: the model vendor, the `@gigachat`
 * participant and its slash commands, and the language model tools. package.json contributes them
 * (test/unit/project/manifest.test.ts checks that the two agree). This module imports nothing: the
 * activation bundle and the unit tests load it.
 */

/** The vendor GigaChat's models are listed under (package.json `languageModelChatProviders`). */
export const MODEL_VENDOR = 'gigachat';

/** The chat participant's id and name: `@gigachat` (package.json `chatParticipants`). */
export const PARTICIPANT_ID = 'gigachat';

/** `@gigachat`'s slash commands (package.json `chatParticipants[].commands`). */
export const PARTICIPANT_COMMANDS = ['explain', 'search', 'codebase', 'web'] as const;

export type ParticipantCommand = (typeof PARTICIPANT_COMMANDS)[number];

/** This extension's own tools (package.json `languageModelTools`), by the key the code knows each by. */
export const OWN_TOOLS = {
  readFile: 'gigachat_readFile',
  findFiles: 'gigachat_findFiles',
  editFile: 'gigachat_editFile',
  searchWorkspace: 'gigachat_searchWorkspace',
} as const;

export type OwnToolKey = keyof typeof OWN_TOOLS;
