import * as vscode from 'vscode';
import type { ClientProvider } from '../clientProvider';
import type { ErrorFixes } from '../errors/errorActions';
import type { Log } from '../log';
import type { SettingsReader } from '../settings/settingsReader';
import { openCertificateHelp } from './certificateHelp';
import { chooseCertificateFile } from './chooseCertificateFile';
import { downloadAndTrustRoot } from './downloadAndTrust';
import { activeRootPin } from './rootPin';
import { TrustedRoot } from './trustedRoot';

/** The pinned root the user may trust, kept in the extension's global storage. */
export function createTrustedRoot(context: vscode.ExtensionContext, log: Log): TrustedRoot {
  return new TrustedRoot(context.globalStorageUri, activeRootPin(log), log);
}

/** What the certificate commands do (extension.ts registers them); the error buttons of the chat and of notifications run them too. */
export type CertificateActions = Pick<ErrorFixes, 'trustRootCertificate' | 'addTrustedCertificate' | 'certificateHelp'>;

export function certificateActions(
  context: vscode.ExtensionContext,
  trustedRoot: TrustedRoot,
  clients: ClientProvider,
  settings: SettingsReader,
  log: Log,
): CertificateActions {
  const addTrustedCertificate = () => chooseCertificateFile(clients, settings, trustedRoot.pin, log);
  return {
    trustRootCertificate: () => downloadAndTrustRoot(trustedRoot, clients, addTrustedCertificate, log),
    addTrustedCertificate,
    certificateHelp: () => openCertificateHelp(context.extensionUri),
  };
}
