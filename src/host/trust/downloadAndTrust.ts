import * as vscode from 'vscode';
import { messageOf, hostOf, PinnedDownloadError, ServiceError, type DownloadFailure } from '../../core';
import type { ClientProvider } from '../clientProvider';
import { askErrorAction, runErrorAction } from '../errors/errorActions';
import type { Log } from '../log';
import { withCancellableProgress } from '../progress';
import type { TrustedRoot } from './trustedRoot';
import { notify } from '../notify';

/**
 * "Download and trust": fetches the pinned root from its official address (through the proxy,
 * with verification on), and trusts it only if it matches the pin. Resolves true once it is
 * trusted and connections are rebuilt, so the caller can retry what failed (at once, when another
 * window trusted it already and only this window's connection lagged behind). When the download
 * fails, the user may go on to choose a certificate file from the message (`chooseFile`); true
 * again if that succeeds.
 */
export async function downloadAndTrustRoot(trustedRoot: TrustedRoot, clients: ClientProvider, chooseFile: () => Promise<boolean>, log: Log): Promise<boolean> {
  const alreadyTrusted = await trustedRoot.load();
  if (alreadyTrusted && !(await clients.trusts(alreadyTrusted.pem))) {
    // Trusted in another window since this window connected: connecting again is the whole fix.
    clients.reconnect('the root certificate was trusted in another window');
    return true;
  }
  if (alreadyTrusted)
    return offerAlternatives(
      chooseFile,
      vscode.l10n.t(
        'GigaChat already trusts the Russian Trusted Root CA, yet the certificate could not be verified. ' +
          "A company proxy or antivirus probably inspects secure connections: choose your company's root certificate.",
      ),
      log,
    );
  const { ca, proxy } = await clients.connection();
  try {
    const certificate = await withCancellableProgress(vscode.l10n.t('Downloading the Russian Trusted Root CA…'), (signal) =>
      trustedRoot.downloadAndTrust({ ca, proxy, signal, logger: log }),
    );
    void notify('info', vscode.l10n.t('GigaChat now trusts "{0}": its SHA-256 fingerprint matches the official one.', certificate.subject));
    return true;
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'cancelled') return false;
    if (error instanceof PinnedDownloadError) return offerAlternatives(chooseFile, failureMessage(error.failure), log);
    log.error(`Trusting the root certificate failed: ${messageOf(error)}`);
    return offerAlternatives(chooseFile, vscode.l10n.t('The Russian Trusted Root CA could not be stored: {0}', messageOf(error)), log);
  }
}

/** The download's failure in words, with what to do instead. */
function failureMessage(failure: DownloadFailure): string {
  const host = hostOf(failure.url);
  switch (failure.kind) {
    case 'mismatch':
      return vscode.l10n.t(
        'The downloaded certificate was refused: it is not the Russian Trusted Root CA. ' +
          'Its SHA-256 fingerprint is {0}, but the official one is {1}. Nothing was trusted. ' +
          'Someone on the network may have replaced the file: ' +
          'download the certificate from gosuslugi.ru/crt in a browser, compare its fingerprint and choose the file.',
        failure.actual,
        failure.expected,
      );
    case 'notCertificate':
      return vscode.l10n.t(
        'What {0} sent is not a certificate (it may be a sign-in page of a proxy). Nothing was trusted. ' +
          'Download the certificate from gosuslugi.ru/crt in a browser and choose the file.',
        host,
      );
    case 'refused':
      return vscode.l10n.t(
        '{0} refused the download of the Russian Trusted Root CA (HTTP {1}). A company proxy may block it: ' +
          'download the certificate from gosuslugi.ru/crt in a browser and choose the file, or ask your IT department.',
        host,
        String(failure.status),
      );
    case 'unreachable':
      return failure.cause.kind === 'tls'
        ? vscode.l10n.t(
            'The Russian Trusted Root CA could not be downloaded: the certificate of {0} is not trusted either. ' +
              "A company proxy or antivirus probably inspects secure connections: choose your company's root certificate instead.",
            host,
          )
        : vscode.l10n.t(
            'The Russian Trusted Root CA could not be downloaded from {0}. ' +
              'Check the network connection and the proxy settings, or download the certificate from gosuslugi.ru/crt in a browser ' +
              'and choose the file.',
            host,
          );
  }
}

/** A failure with the other ways out; resolves true when the user trusted a file from here. */
async function offerAlternatives(chooseFile: () => Promise<boolean>, message: string, log: Log): Promise<boolean> {
  const actions = ['chooseCertificateFile', 'certificateHelp', 'openLogs'] as const;
  const action = await askErrorAction(message, actions);
  if (action === 'chooseCertificateFile') return chooseFile();
  if (action) await runErrorAction(action, log);
  return false;
}
