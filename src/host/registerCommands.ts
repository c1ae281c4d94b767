import * as vscode from 'vscode';
import { COMMAND_NAMES, commandId, type CommandName } from './commands';

/** What a command runs: given what VS Code passes (a menu's clicked file, say), or, for a command on the active editor, that editor. */
export type CommandHandler = ((...args: unknown[]) => unknown) | { readonly textEditor: (editor: vscode.TextEditor) => unknown };

/** A handler per command: TypeScript refuses a set that misses one, or names one that does not exist. */
export type CommandHandlers<Name extends CommandName = CommandName> = { readonly [N in Name]: CommandHandler };

/** Registers every command under its `gigachat.` id, for as long as the extension runs. */
export function registerCommands(context: vscode.ExtensionContext, handlers: CommandHandlers): void {
  for (const name of COMMAND_NAMES) {
    const handler = handlers[name];
    const id = commandId(name);
    context.subscriptions.push(
      typeof handler === 'function' ? vscode.commands.registerCommand(id, handler) : vscode.commands.registerTextEditorCommand(id, handler.textEditor),
    );
  }
}
