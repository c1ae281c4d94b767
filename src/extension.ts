import type * as vscode from 'vscode';

/** Entry point. Features register themselves here as they land; nothing heavy happens at activation. */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
