import * as vscode from 'vscode';
import {
  asServiceError,
  ATTACHMENTS_REFUSED,
  CONNECTION_LOST,
  NOT_TLS_CODE,
  ServiceError,
  TOKEN_EXPIRED,
  isScopeMismatch,
  isUnknownRootError,
  type ServiceErrorKind,
} from '../../core';
import type { ErrorAction, TurnError } from '../../shared/protocol';
import type { SettingsReader } from '../settings/settingsReader';
import { askedWait, waitText } from './askedWait';
import type { Log } from '../log';
import { explainProxy } from './proxyErrors';
import { explainInvalidRequest, explainProtocol, explainRefusedPictures, explainStreamsBusy } from './replyErrors';

let settings: Pick<SettingsReader, 'get'> | undefined;

/**
 * Gives the error texts the settings they name (the scope, the model); services.ts calls it as it
 * builds the features, before any error can be described. Handed in once, rather than to each
 * caller: an error is described deep inside every feature.
 */
export function describeErrorsWith(reader: Pick<SettingsReader, 'get'>): void {
  settings = reader;
}

function setting(key: 'scope' | 'model'): string {
  if (!settings) throw new Error('An error was described before the settings were handed in');
  return settings.get(key);
}

/**
 * What the user reads when something fails: what happened and why in plain words, and the
 * buttons that fix it. The technical detail and the request id go to the log, once, here.
 */
export function describeError(error: unknown, log: Log): TurnError {
  const failure = asServiceError(error);
  const line = failureLine(failure);
  if (failure.kind === 'cancelled') log.info(line);
  else log.error(line);
  const wait = askedWait(failure);
  const { message, actions } = explain(failure, wait);
  return { kind: failure.kind, message, actions, requestId: failure.requestId, ...(wait ? { retryAt: Date.now() + wait } : {}) };
}

/**
 * A failure as the log records it: its kind, its message and the service's request id; for the
 * extension's own failure, where it was thrown.
 */
export function failureLine(failure: ServiceError): string {
  const line = `${failure.kind}: ${failure.message}${failure.requestId ? ` (request id ${failure.requestId})` : ''}`;
  // The stack's first line is the message again.
  const where = failure.kind === 'internal' && failure.cause instanceof Error ? failure.cause.stack?.split('\n').slice(1).join('\n') : undefined;
  return where ? `${line}\n${where}` : line;
}

/** The extension's own failure: said as such, never as GigaChat's. */
export function explainInternal(): { message: string; actions: ErrorAction[] } {
  return {
    message: vscode.l10n.t(
      'Something went wrong inside the GigaChat extension, not at GigaChat: an error it did not expect. Retry tries again; the log has the details.',
    ),
    actions: ['retry', 'openLogs'],
  };
}

/** @param wait how long the service asked to wait, in ms (see askedWait) */
function explain(error: ServiceError, wait: number | undefined): { message: string; actions: ErrorAction[] } {
  const texts: Record<Exclude<ServiceErrorKind, 'cancelled'>, () => { message: string; actions: ErrorAction[] }> = {
    auth: () =>
      error.code === 'NO_KEY'
        ? { message: vscode.l10n.t('No GigaChat authorization key is set. Set one to start chatting.'), actions: ['setKey'] }
        : error.code === TOKEN_EXPIRED
          ? {
              message: vscode.l10n.t(
                'GigaChat called its access token expired, though a fresh one had just been issued. The authorization key is fine: try again in a moment.',
              ),
              actions: ['retry', 'openLogs'],
            }
          : isScopeMismatch(error)
            ? {
                message: vscode.l10n.t(
                  'The authorization key is for another scope than {0} in the settings (a business key, say). Set the key again: GigaChat finds its scope by itself.',
                  setting('scope'),
                ),
                actions: ['setKey', 'scopeSettings'],
              }
            : {
                message: vscode.l10n.t('GigaChat did not accept the authorization key. Check that it is copied whole and matches the selected scope.'),
                actions: ['setKey', 'scopeSettings', 'openLogs'],
              },
    payment: () => ({
      message: vscode.l10n.t('Your GigaChat account has run out of tokens. Top up or change the plan in your account.'),
      actions: ['openAccount'],
    }),
    forbidden: () => ({
      message: vscode.l10n.t('GigaChat denied access. The key or its scope may not allow this model or file.'),
      actions: ['scopeSettings', 'modelSettings', 'openLogs'],
    }),
    notFound: () => ({
      message: vscode.l10n.t('GigaChat does not know the requested model or file. Check the model in the settings.'),
      actions: ['modelSettings', 'openLogs'],
    }),
    tooLarge: () => ({ message: vscode.l10n.t('The request is too large for GigaChat. Start a new chat or send less text.'), actions: ['openLogs'] }),
    invalidRequest: () => explainInvalidRequest(error),
    rateLimit: () =>
      wait
        ? { message: vscode.l10n.t('GigaChat asks to wait {0} before the next request. Retry is available then.', waitText(wait)), actions: ['retry'] }
        : explainStreamsBusy(setting('scope')),
    server: () => ({ message: vscode.l10n.t('GigaChat had a problem on its side. Try again in a moment.'), actions: ['retry', 'openLogs'] }),
    network: () =>
      error.code === CONNECTION_LOST
        ? {
            message: vscode.l10n.t(
              'The connection to GigaChat broke while the reply was arriving. Retry asks again; if it keeps happening, check the network and the proxy.',
            ),
            actions: ['retry', 'checkConnection', 'proxySettings', 'openLogs'],
          }
        : error.code === NOT_TLS_CODE
          ? {
              message: vscode.l10n.t(
                'The server did not answer with a secure connection: the port or the scheme of an address is probably wrong. ' +
                  'Check the GigaChat addresses in the settings, and the proxy: ' +
                  'a proxy that speaks plain http is written http://, not https://.',
              ),
              actions: ['addressSettings', 'proxySettings', 'checkConnection', 'openLogs'],
            }
          : {
              message: vscode.l10n.t('Could not connect to GigaChat. Check your network connection and proxy settings.'),
              actions: ['retry', 'checkConnection', 'proxySettings', 'openLogs'],
            },
    proxy: () => explainProxy(error),
    tls: () =>
      isUnknownRootError(error)
        ? {
            message: vscode.l10n.t(
              "The GigaChat server's certificate could not be verified: " +
                'it comes from a root certificate this computer does not trust. ' +
                "GigaChat's certificates are issued by the Russian Trusted Root CA, which most systems do not trust yet. " +
                "Behind a company proxy that inspects secure connections, choose your company's root certificate instead.",
            ),
            actions: ['trustRootCertificate', 'chooseCertificateFile', 'certificateSettings', 'certificateHelp'],
          }
        : {
            message: vscode.l10n.t(
              'The secure connection to GigaChat failed ({0}): ' +
                "the server's certificate has expired, is not valid yet, or was issued for another name. " +
                "Check the computer's date and the addresses in the settings.",
              error.code ?? 'TLS',
            ),
            actions: ['addressSettings', 'checkConnection', 'certificateHelp', 'openLogs'],
          },
    timeout: () => ({ message: vscode.l10n.t('GigaChat did not answer in time.'), actions: ['retry', 'checkConnection', 'openLogs'] }),
    protocol: () => explainProtocol(error),
    internal: explainInternal,
  };
  if (error.kind === 'cancelled') return { message: vscode.l10n.t('Stopped.'), actions: [] };
  if (error.code === ATTACHMENTS_REFUSED) return explainRefusedPictures(error, setting('model'));
  return texts[error.kind]();
}
