import * as vscode from 'vscode';
import { fileLines } from '../../core';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { progressText, toolText } from './toolText';

export interface ReadFileInput {
  path: string;
  /** 1-based, inclusive. */
  startLine?: number;
  endLine?: number;
}

/**
 * `gigachat_readFile`: a workspace file's lines, numbered, as an agent reads code. The open
 * editor's text when the file is open (unsaved changes included). Only the workspace port's files
 * (no link, secret, ignored or version-control file; see WorkspacePort), each refusal with its
 * reason. The lines as fileLines gives them: bounded (a minified one-line file must not flood the
 * model's context), and with values that look like tokens masked, saying so.
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
    return toolText(fileLines(file.label, text, input.startLine, input.endLine));
  }
}
