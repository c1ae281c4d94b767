import * as vscode from 'vscode';
import { boundedText, TOOL_RESULT_BOUNDS } from '../../core';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { progressText, toolText } from './toolText';

export interface ReadFileInput {
  path: string;
  /** 1-based, inclusive. */
  startLine?: number;
  endLine?: number;
}

/** What one call returns at most: enough to work with, little enough to leave room for the answer. */
const MAX_LINES = 400;

/**
 * `gigachat_readFile`: a workspace file's lines, numbered, as an agent reads code. The open
 * editor's text when the file is open (unsaved changes included). Only the workspace port's files
 * (no link, secret, ignored or version-control file; see WorkspacePort), each refusal with its
 * reason. Every line is cut at TOOL_RESULT_BOUNDS.maxLineChars and the whole held to its maxChars,
 * saying so: a minified one-line file must not flood the model's context.
 */
export class ReadFileTool implements vscode.LanguageModelTool<ReadFileInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadFileInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: progressText(vscode.l10n.t('Reading {0}', String(options.input?.path))) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadFileInput>): Promise<vscode.LanguageModelToolResult> {
    const { input } = options;
    if (typeof input?.path !== 'string' || input.path.trim() === '') return toolText('Give the path of a file of the workspace.');
    const port = new WorkspacePort();
    const file = await port.resolve(input.path);
    if (isRefusal(file)) return toolText(file.refused);
    if (!file.exists) return toolText(`${file.label} does not exist: find files with gigachat_findFiles.`);
    const text = await port.readText(file);
    if (text === undefined) return toolText(`${file.label} could not be read as text.`);
    const lines = text.split(/\r?\n/);
    const total = lines.length;
    const first = clamp(input.startLine ?? 1, 1, total);
    let last = clamp(input.endLine ?? first + MAX_LINES - 1, first, Math.min(total, first + MAX_LINES - 1));
    const numbered: string[] = [];
    let characters = 0;
    for (let line = first; line <= last; line++) {
      const shown = `${line}: ${lines[line - 1]}`;
      const length = Math.min(shown.length, TOOL_RESULT_BOUNDS.maxLineChars);
      if (characters + length > TOOL_RESULT_BOUNDS.maxChars && numbered.length > 0) {
        last = line - 1;
        break;
      }
      numbered.push(shown);
      characters += length + 1;
    }
    const bounded = boundedText(numbered.join('\n'));
    const more = last < total ? ` Lines ${last + 1}–${total} were not read: ask for them with startLine ${last + 1}.` : '';
    const cut = bounded.cutLines > 0 ? ` ${bounded.cutLines} lines longer than ${TOOL_RESULT_BOUNDS.maxLineChars} characters were cut.` : '';
    return toolText(`${file.label}, lines ${first}–${last} of ${total}.${more}${cut}\n${bounded.text}`);
  }
}

function clamp(value: unknown, low: number, high: number): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : low;
  return Math.min(Math.max(number, low), Math.max(low, high));
}
