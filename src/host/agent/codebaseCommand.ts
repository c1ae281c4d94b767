import * as vscode from 'vscode';
import { codebaseBudget, codebaseText, estimateTokens, messageText, modelLimits, type ConversationMessage } from '../../core';
import { abortSignalOf } from '../cancellation';
import { withoutCodebaseTag } from '../../shared/codebaseTag';
import type { SettingsReader } from '../settings/settingsReader';
import { findPassages, foundContext } from '../search/codebaseSource';
import type { SemanticSearchCommands } from '../search/semanticSearch';
import { explainUnavailable } from './searchCommand';

/**
 * `@gigachat /codebase <question>` (or `#codebase` in the question): the question with the
 * passages of the workspace closest to it, within what the model leaves room for once the chat
 * so far and the answer are counted. Each passage is a reference the user can open; the answer
 * cites them as path:line. Under the search command's rules: before the user has agreed to
 * indexing nothing is sent, and the answer says what to do (undefined then).
 */
export async function codebaseQuestion(
  prompt: string,
  history: readonly ConversationMessage[],
  model: vscode.LanguageModelChat,
  { search, settings }: { search: Pick<SemanticSearchCommands, 'searchQuietly'>; settings: Pick<SettingsReader, 'get'> },
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<string | undefined> {
  const question = withoutCodebaseTag(prompt);
  if (!question) {
    stream.markdown(vscode.l10n.t('Ask a question about the code: `@gigachat /codebase where are the retries counted?`'));
    return undefined;
  }
  const conversationTokens = history.reduce((sum, message) => sum + estimateTokens(messageText(message)), estimateTokens(question));
  const { maxOutputTokens } = modelLimits(model.id, settings.get('modelTokenLimits'));
  const budget = codebaseBudget({ maxInputTokens: model.maxInputTokens, answerTokens: maxOutputTokens, conversationTokens });
  const cancellation = abortSignalOf(token);
  try {
    stream.progress(vscode.l10n.t('Looking for the passages of the workspace closest to the question…'));
    const found = await findPassages(search, question, budget, cancellation.signal);
    if (found.kind !== 'passages') {
      explainUnavailable(found.kind, stream);
      return undefined;
    }
    for (const passage of found.passages) stream.reference(new vscode.Location(passage.uri, new vscode.Range(passage.startLine, 0, passage.endLine, 0)));
    const { notice, ...passages } = foundContext(found);
    if (notice) stream.markdown(`_${notice}_\n\n`);
    const context = codebaseText(passages);
    return context ? `${context}\n\n${question}` : question;
  } finally {
    cancellation.dispose();
  }
}
