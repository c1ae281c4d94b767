import * as vscode from 'vscode';
import type { Prompt } from '../../core';
import { fencedCode } from '../../shared/fencedCode';
import { excerptLabel, excerptNotice, linesText, selectedExcerpt } from './codeExcerpts';

/** The prompt that explains the editor's selection: file, language and line numbers included. */
export function explainPrompt(document: vscode.TextDocument, selection: vscode.Range): Prompt {
  const excerpt = selectedExcerpt(document, selection);
  const question = vscode.l10n.t(
    'Explain this code from {0} ({1}, {2}): what it does, how, and anything surprising.',
    excerpt.file,
    linesText(excerpt.first, excerpt.last),
    excerpt.language,
  );
  const { file, first, last, language, code } = excerpt;
  return {
    text: `${question}\n\n${fencedCode(excerpt.code, excerpt.language)}`,
    contextLabel: excerptLabel(excerpt),
    explained: { file, first, last, language, code },
    notice: excerptNotice([excerpt]),
  };
}
