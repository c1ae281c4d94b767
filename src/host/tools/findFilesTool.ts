import * as vscode from 'vscode';
import { isRefusal, WorkspacePort } from '../workspace/workspacePort';
import { progressText, toolText } from './toolText';

export interface FindFilesInput {
  /** A glob, e.g. `src/**\/*.ts`. */
  pattern: string;
}

/** Names listed per call at most: enough to choose from, little enough to leave room for the answer. */
const MAX_FILES = 100;

/**
 * `gigachat_findFiles`: the workspace's files whose paths match a glob, so the agent knows what to
 * read. Only the workspace port's files are named (no link, secret, ignored or excluded file).
 */
export class FindFilesTool implements vscode.LanguageModelTool<FindFilesInput> {
  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<FindFilesInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: progressText(vscode.l10n.t('Finding files matching {0}', String(options.input?.pattern))) };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<FindFilesInput>, token: vscode.CancellationToken): Promise<vscode.LanguageModelToolResult> {
    const pattern = typeof options.input?.pattern === 'string' && options.input.pattern.trim() ? options.input.pattern.trim() : '**/*';
    // More than shown are asked for: some are left out by the rules below.
    const found = await vscode.workspace.findFiles(pattern, undefined, MAX_FILES * 2, token);
    const names: string[] = [];
    const port = new WorkspacePort();
    for (const uri of found.sort((a, b) => a.path.localeCompare(b.path))) {
      if (names.length >= MAX_FILES) break;
      const file = await port.judge(uri);
      if (!isRefusal(file)) names.push(file.label);
    }
    if (names.length === 0) return toolText(`No file of the workspace matches ${pattern}.`);
    const more = names.length === MAX_FILES || found.length === MAX_FILES * 2 ? ` (the first ${names.length}; narrow the pattern to see others)` : '';
    return toolText(`Files matching ${pattern}${more}:\n${names.join('\n')}`);
  }
}
