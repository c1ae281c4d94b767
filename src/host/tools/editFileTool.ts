import * as vscode from 'vscode';
import { diffText, planEdit, type EditInput, type EditPlan } from './editPlan';
import { toolText } from './toolText';
import { isRefusal, resolveWorkspaceFile, type WorkspaceFile } from './workspaceFile';

/**
 * `gigachat_editFile`: replaces one exact piece of a workspace file, or writes a new file. VS Code
 * asks the user first, showing the change as a diff (the tool's confirmation); only an accepted
 * change reaches the file, which is then saved and shown. A change that no longer applies when
 * accepted (the file changed meanwhile) is refused, never applied elsewhere.
 */
export class EditFileTool implements vscode.LanguageModelTool<EditInput> {
  async prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<EditInput>): Promise<vscode.PreparedToolInvocation> {
    const invocationMessage = vscode.l10n.t('Editing {0}', String(options.input.path));
    const planned = await plan(options.input);
    // A change that cannot be made is not asked about: the model is told why, and tries again.
    if ('refused' in planned) return { invocationMessage };
    const { file, edit } = planned;
    const message = new vscode.MarkdownString(
      `${vscode.l10n.t('GigaChat wants to change {0}:', file.label)}\n\n\`\`\`diff\n${diffText(edit, file.label).replace(/```/g, '`\u200b``')}\n\`\`\``,
    );
    return { invocationMessage, confirmationMessages: { title: vscode.l10n.t('Change {0}?', file.label), message } };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<EditInput>): Promise<vscode.LanguageModelToolResult> {
    const planned = await plan(options.input);
    if ('refused' in planned) return toolText(planned.refused);
    const { file, edit } = planned;
    const workspaceEdit = new vscode.WorkspaceEdit();
    let document: vscode.TextDocument | undefined;
    if (edit.kind === 'create') {
      workspaceEdit.createFile(file.uri, { ignoreIfExists: true, contents: new TextEncoder().encode(edit.newText) });
    } else {
      document = await vscode.workspace.openTextDocument(file.uri);
      const range = new vscode.Range(document.positionAt(edit.offset), document.positionAt(edit.offset + edit.oldText.length));
      workspaceEdit.replace(file.uri, range, edit.newText);
    }
    if (!(await vscode.workspace.applyEdit(workspaceEdit))) return toolText(`${file.label} could not be changed (VS Code refused the edit).`);
    document ??= await vscode.workspace.openTextDocument(file.uri);
    await document.save();
    const firstLine = edit.kind === 'replace' ? edit.firstLine : 1;
    const start = new vscode.Position(firstLine - 1, 0);
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: true, selection: new vscode.Range(start, start) });
    return toolText(edit.kind === 'create' ? `Created ${file.label}.` : `Changed ${file.label} from line ${firstLine}; the file is saved.`);
  }
}

async function plan(input: EditInput): Promise<{ file: WorkspaceFile; edit: Exclude<EditPlan, { kind: 'refused' }> } | { refused: string }> {
  if (typeof input?.path !== 'string' || input.path.trim() === '') return { refused: 'Give the path of the file to change.' };
  const file = await resolveWorkspaceFile(input.path);
  if (isRefusal(file)) return file;
  const edit = planEdit(input, await currentText(file.uri), file.label);
  return edit.kind === 'refused' ? { refused: edit.reason } : { file, edit };
}

/** The file's text as the editor has it (unsaved changes included), or undefined when there is no such file. */
async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) return open.getText();
  try {
    await vscode.workspace.fs.stat(uri);
  } catch {
    return undefined;
  }
  return (await vscode.workspace.openTextDocument(uri)).getText();
}
