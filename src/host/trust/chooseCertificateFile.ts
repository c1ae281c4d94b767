import * as os from 'node:os';
import * as vscode from 'vscode';
import { messageOf, readCertificates, type CertificatePin, type CertificateSummary } from '../../core';
import type { ClientProvider } from '../clientProvider';
import type { SettingsReader } from '../settings/settingsReader';
import { offerErrorActions } from '../errors/errorActions';
import type { Log } from '../log';
import { describeCertificate } from './certificateDescription';
import { countMessage } from '../countMessage';
import { notify } from '../notify';

/**
 * "Choose certificate file…": for the company's own root (a proxy that inspects TLS) or a root
 * certificate downloaded by hand. Shows what the file holds (subject, SHA-256) in a modal and adds
 * the file to `gigachat.caCertificates` (user settings) only once the user confirms. Resolves true
 * when the file was added and connections rebuilt, so the caller can retry what failed.
 */
export async function chooseCertificateFile(clients: ClientProvider, settings: SettingsReader, pin: CertificatePin, log: Log): Promise<boolean> {
  const [file] =
    (await vscode.window.showOpenDialog({
      title: vscode.l10n.t('Choose the root certificate to trust'),
      openLabel: vscode.l10n.t('Choose'),
      canSelectMany: false,
      defaultUri: vscode.Uri.file(os.homedir()),
      filters: { [vscode.l10n.t('Certificates')]: ['pem', 'crt', 'cer', 'der'], [vscode.l10n.t('All files')]: ['*'] },
    })) ?? [];
  if (!file) return false;

  const certificates = await readCertificateFile(file, log);
  if (!certificates) return false;
  const trust = vscode.l10n.t('Trust');
  const question =
    certificates.length === 1
      ? vscode.l10n.t('Trust this certificate for connections to GigaChat?')
      : countMessage('Trust these {0|# certificate|# certificates} for connections to GigaChat?', certificates.length);
  const detail = [
    ...certificates.map((certificate) => describeCertificate(certificate, pin)),
    vscode.l10n.t('Trust a certificate only if you know where it comes from: compare its fingerprint with the one your IT department publishes.'),
  ].join('\n\n');
  if ((await notify('warning', question, [trust], { modal: true, detail })) !== trust) return false;

  const configured = settings.get('caCertificates');
  if (!configured.includes(file.fsPath) && !(await addToSetting([...configured, file.fsPath], settings, log))) return false;
  clients.reconnect('a trusted certificate file was added');
  log.info(`Added ${file.fsPath} to gigachat.caCertificates: ${certificates.map((c) => `${c.subject} (SHA-256 ${c.sha256})`).join('; ')}`);
  void notify('info', vscode.l10n.t('{0} was added to the trusted certificates (the setting gigachat.caCertificates).', file.fsPath));
  return true;
}

/** Writes `gigachat.caCertificates`; false after telling the user why it could not be (a settings file with errors, say). */
async function addToSetting(files: string[], settings: SettingsReader, log: Log): Promise<boolean> {
  try {
    await settings.write('caCertificates', files, 'user');
    return true;
  } catch (error) {
    const reason = messageOf(error);
    log.error(`Could not write gigachat.caCertificates: ${reason}`);
    await offerErrorActions(
      'error',
      vscode.l10n.t('The certificate could not be added to the setting gigachat.caCertificates, so it is not trusted: {0}', reason),
      ['certificateSettings', 'openLogs'],
      log,
    );
    return false;
  }
}

/** The certificates in the file, or undefined after telling the user why there are none. */
async function readCertificateFile(file: vscode.Uri, log: Log): Promise<CertificateSummary[] | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(file);
  } catch (error) {
    log.warn(`Could not read ${file.fsPath}: ${messageOf(error)}`);
    void notify('error', vscode.l10n.t('Could not read {0}. The log has the details.', file.fsPath));
    return undefined;
  }
  const certificates = readCertificates(bytes);
  if (certificates.length === 0) {
    void notify('error', vscode.l10n.t('{0} holds no certificate. Choose a certificate file in PEM or DER form (.pem, .crt, .cer).', file.fsPath));
    return undefined;
  }
  return certificates;
}
