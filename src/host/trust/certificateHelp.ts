import * as vscode from 'vscode';

/** The README's certificate section, in the language of the UI (the README has it in both). */
const SECTIONS = { en: 'certificates-and-company-networks', ru: 'сертификаты-и-корпоративные-сети' };

/** "Learn more": the README section on certificates and company networks, in the Markdown preview. */
export async function openCertificateHelp(extensionUri: vscode.Uri): Promise<void> {
  const fragment = vscode.env.language.startsWith('ru') ? SECTIONS.ru : SECTIONS.en;
  const readme = (await readmeOf(extensionUri)).with({ fragment });
  await vscode.commands.executeCommand('markdown.showPreview', readme);
}

/** vsce renames README.md to readme.md in the package; a development copy keeps the original name. */
async function readmeOf(extensionUri: vscode.Uri): Promise<vscode.Uri> {
  const packaged = vscode.Uri.joinPath(extensionUri, 'readme.md');
  try {
    await vscode.workspace.fs.stat(packaged);
    return packaged;
  } catch {
    return vscode.Uri.joinPath(extensionUri, 'README.md');
  }
}
