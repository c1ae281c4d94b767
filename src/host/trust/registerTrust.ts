import * as vscode from 'vscode';
import type { ClientProvider } from '../clientProvider';
import type { Log } from '../log';
import { openCertificateHelp } from './certificateHelp';
import { chooseCertificateFile } from './chooseCertificateFile';
import { downloadAndTrustRoot } from './downloadAndTrust';
import { activeRootPin } from './rootPin';
import { TrustedRoot } from './trustedRoot';

/** The pinned root the user may trust, kept in the extension's global storage. */
export function createTrustedRoot(context: vscode.ExtensionContext, log: Log): TrustedRoot {
  const trustedRoot = new TrustedRoot(context.globalStorageUri, activeRootPin(log), log);
  context.subscriptions.push(trustedRoot);
  return trustedRoot;
}

/** The certificate commands; the error buttons of the chat and of notifications run them too. */
export function registerCertificateCommands(context: vscode.ExtensionContext, trustedRoot: TrustedRoot, clients: ClientProvider, log: Log): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('gigachat.trustRootCertificate', () => downloadAndTrustRoot(trustedRoot, clients, log)),
    vscode.commands.registerCommand('gigachat.addTrustedCertificate', () => chooseCertificateFile(clients, trustedRoot.pin, log)),
    vscode.commands.registerCommand('gigachat.certificateHelp', () => openCertificateHelp(context.extensionUri)),
  );
}
