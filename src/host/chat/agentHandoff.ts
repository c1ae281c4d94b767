import * as vscode from 'vscode';
import { MODEL_VENDOR } from '../chatNames';
import type { Log } from '../log';
import { messageOf } from '../../core';
import { notify } from '../notify';

/** The answer handed over at most: the agent reads the files itself, the answer only says what to do. */
const MAX_ANSWER_CHARS = 12_000;

/**
 * Do it in Agent mode: VS Code's Chat opens in Agent mode on the panel's GigaChat model, with the
 * question and the panel's answer in its input, for the user to read and send. The agent then
 * makes the changes with VS Code's own tools (each edit kept or undone in its changed-files list).
 */
export async function continueInAgentMode(exchange: { question: string; answer: string } | undefined, model: string, log: Log): Promise<void> {
  if (!exchange) return;
  const answer = exchange.answer.length > MAX_ANSWER_CHARS ? `${exchange.answer.slice(0, MAX_ANSWER_CHARS)}\n…` : exchange.answer;
  const query = [
    vscode.l10n.t('Make the changes this answer proposes in the workspace.'),
    `${vscode.l10n.t('My question:')}\n${exchange.question}`,
    `${vscode.l10n.t('The answer:')}\n${answer}`,
  ].join('\n\n');
  await openAgentMode(query, model, log);
}

/**
 * VS Code's Chat in Agent mode on the panel's GigaChat model, with `query` in its input (not sent)
 * or an empty one; a Chat that does not open (AI features off) says why, with the setting.
 */
export async function openAgentMode(query: string | undefined, model: string, log: Log): Promise<void> {
  try {
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      ...(query === undefined ? {} : { query, isPartialQuery: true }),
      mode: 'agent',
      modelSelector: { vendor: MODEL_VENDOR, id: model },
    });
  } catch (error) {
    log.warn(`Agent mode: VS Code's Chat did not open (${messageOf(error)})`);
    const openSettings = vscode.l10n.t('Open Settings');
    const choice = await notify('warning', vscode.l10n.t("VS Code's Chat did not open: its AI features may be turned off (chat.disableAIFeatures)."), [
      openSettings,
    ]);
    if (choice === openSettings) await vscode.commands.executeCommand('workbench.action.openSettings', 'chat.disableAIFeatures');
  }
}
