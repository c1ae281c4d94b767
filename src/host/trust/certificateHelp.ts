import type * as vscode from 'vscode';
import { openHelpPage } from '../help/helpPages';

/** "Learn more": the help page on certificates and company networks, in the Markdown preview. */
export async function openCertificateHelp(extensionUri: vscode.Uri): Promise<void> {
  await openHelpPage(extensionUri, 'network');
}
