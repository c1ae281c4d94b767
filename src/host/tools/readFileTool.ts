import * as vscode from 'vscode';
import { isRefusal, resolveWorkspaceFile } from './workspaceFile';
import { toolText } from './toolText';

export interface ReadFileInput {
  path: string;
  /** 1-based, inclusive. */
  startLine?: number;
  endLine?: number;
}

/** What one call returns at most: enough to work with, little enough to leave room for the answer. */
const MAX_LINES = 400;
const MAX_CHARACTERS = 40_000;

/**
 * `gigachat_readFile`: a workspace file's lines, numbered, as an agent reads code. The open
 * editor's text when the file is open (unsaved changes included). Files semantic search would
 * never send (secrets, ignored, outside the workspace) are refused with the reason.
 */
export class ReadFileTool implements vscode.LanguageModelTool<ReadFileInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<ReadFileInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: vscode.l10n.t('Reading {0}', String(options.input.path)) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<ReadFileInput>): Promise<vscode.LanguageModelToolResult> {
    const { input } = options;
    if (typeof input.path !== 'string' || input.path.trim() === '') return toolText('Give the path of a file of the workspace.');
    const file = await resolveWorkspaceFile(input.path);
    if (isRefusal(file)) return toolText(file.refused);
    let document: vscode.TextDocument;
    try {
      document = await vscode.workspace.openTextDocument(file.uri);
    } catch (error) {
      return toolText(`${file.label} could not be read: ${(error as Error).message}`);
    }
    const total = document.lineCount;
    const first = clamp(input.startLine ?? 1, 1, total);
    let last = clamp(input.endLine ?? first + MAX_LINES - 1, first, Math.min(total, first + MAX_LINES - 1));
    const lines: string[] = [];
    let characters = 0;
    for (let line = first; line <= last; line++) {
      const text = `${line}: ${document.lineAt(line - 1).text}`;
      if (characters + text.length > MAX_CHARACTERS && lines.length > 0) {
        last = line - 1;
        break;
      }
      lines.push(text);
      characters += text.length + 1;
    }
    const more = last < total ? ` Lines ${last + 1}–${total} were not read: ask for them with startLine ${last + 1}.` : '';
    return toolText(`${file.label}, lines ${first}–${last} of ${total}.${more}\n${lines.join('\n')}`);
  }
}

function clamp(value: unknown, low: number, high: number): number {
  const number = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : low;
  return Math.min(Math.max(number, low), Math.max(low, high));
}
