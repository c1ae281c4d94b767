import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { chatContentSecurityPolicy } from '../../shared/csp';
import { webviewStrings, type WebviewStrings } from '../../shared/strings';

/** The chat view's page: a skeleton the webview script fills, under a strict CSP (see csp.ts). */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri): string {
  const nonce = randomBytes(18).toString('base64');
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  const style = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat.css'));
  // KaTeX's stylesheet for formulas, with its fonts beside it (written to dist/ by esbuild.js).
  const mathStyle = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'katex', 'katex.css'));
  const csp = chatContentSecurityPolicy(webview.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="${escapeHtml(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${mathStyle.toString()}" rel="stylesheet">
<link href="${style.toString()}" rel="stylesheet">
<title>GigaChat</title>
</head>
<body data-strings="${escapeHtml(JSON.stringify(localizedStrings()))}">
<div id="app"></div>
<script nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** Every string the webview shows, translated on the host where `vscode.l10n` lives. */
function localizedStrings(): WebviewStrings {
  const entries = Object.entries(webviewStrings).map(([key, english]) => [key, vscode.l10n.t(english)]);
  return Object.fromEntries(entries) as WebviewStrings;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}
