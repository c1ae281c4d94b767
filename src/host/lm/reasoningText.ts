import * as vscode from 'vscode';

/**
 * How a reasoning model's thinking reaches @gigachat apart from its answer. VS Code's stable
 * language model API has text and tool calls only (its thinking part is still proposed), so the
 * provider marks the thinking's text, and only for a caller that asks for it with this model
 * option: any other agent never sees it (its answer would carry the model's thoughts).
 */
export const REASONING_OPTION = 'gigachatReasoning';

/** Begins a text part that carries thinking: invisible characters no model writes at the start of a part. */
const MARK = '\u2063\u2063reasoning\u2063';

export function reasoningPart(text: string): vscode.LanguageModelTextPart {
  return new vscode.LanguageModelTextPart(MARK + text);
}

/** The thinking a text part carries; undefined for the answer's text. */
export function reasoningOf(value: string): string | undefined {
  return value.startsWith(MARK) ? value.slice(MARK.length) : undefined;
}
