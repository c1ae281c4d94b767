import * as vscode from 'vscode';
import type { ServicesLoader } from '../servicesLoader';

/**
 * Suggestions as you type, registered at activation for every document (what is asked where is
 * the provider's to judge); the provider's code loads on the first keystroke (see servicesLoader.ts).
 */
export function registerCompletions(context: vscode.ExtensionContext, services: ServicesLoader): void {
  context.subscriptions.push(
    vscode.languages.registerInlineCompletionItemProvider('*', {
      provideInlineCompletionItems: (...args) => services().completions.provideInlineCompletionItems(...args),
    }),
  );
}
