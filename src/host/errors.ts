import * as vscode from 'vscode';
import { ATTACHMENTS_REFUSED, invalidUrlSetting, NOT_TLS_CODE, ServiceError, isUnknownRootError, type ServiceErrorKind } from '../core';
import type { ErrorAction, TurnError } from '../shared/protocol';
import { ACTION_LABELS, webviewStrings } from '../shared/strings';
import { askedWait, waitText } from './askedWait';
import type { Log } from './log';
import { readSettings } from './config';
import { settingId } from '../shared/settings';

/**
 * What the user reads when something fails: what happened and why in plain words, and the
 * buttons that fix it. The technical detail and the request id go to the log, once, here.
 */
export function describeError(error: unknown, log: Log): TurnError {
  const failure = error instanceof ServiceError ? error : new ServiceError('protocol', String((error as Error)?.message ?? error));
  const line = `${failure.kind}: ${failure.message}${failure.requestId ? ` (request id ${failure.requestId})` : ''}`;
  if (failure.kind === 'cancelled') log.info(line);
  else log.error(line);
  const wait = askedWait(failure);
  const { message, actions } = explain(failure, wait);
  return { kind: failure.kind, message, actions, requestId: failure.requestId, ...(wait ? { retryAt: Date.now() + wait } : {}) };
}

/** @param wait how long the service asked to wait, in ms (see askedWait) */
function explain(error: ServiceError, wait: number | undefined): { message: string; actions: ErrorAction[] } {
  const texts: Record<Exclude<ServiceErrorKind, 'cancelled'>, () => { message: string; actions: ErrorAction[] }> = {
    auth: () =>
      error.code === 'NO_KEY'
        ? { message: vscode.l10n.t('No GigaChat authorization key is set. Set one to start chatting.'), actions: ['setKey'] }
        : {
            message: vscode.l10n.t('GigaChat did not accept the authorization key. Check that it is copied whole and matches the selected scope.'),
            actions: ['setKey', 'openSettings', 'openLogs'],
          },
    payment: () => ({
      message: vscode.l10n.t('Your GigaChat account has run out of tokens. Top up or change the plan in your account.'),
      actions: ['openAccount'],
    }),
    forbidden: () => ({
      message: vscode.l10n.t('GigaChat denied access. The key or its scope may not allow this model or file.'),
      actions: ['openSettings', 'openLogs'],
    }),
    notFound: () => ({
      message: vscode.l10n.t('GigaChat does not know the requested model or file. Check the model in the settings.'),
      actions: ['openSettings', 'openLogs'],
    }),
    tooLarge: () => ({ message: vscode.l10n.t('The request is too large for GigaChat. Start a new chat or send less text.'), actions: ['openLogs'] }),
    invalidRequest: () => explainInvalidRequest(error),
    rateLimit: () =>
      wait
        ? { message: vscode.l10n.t('GigaChat asks to wait {0} before the next request. Retry is available then.', waitText(wait)), actions: ['retry'] }
        : { message: vscode.l10n.t('GigaChat is receiving too many requests right now. Wait a moment and try again.'), actions: ['retry'] },
    server: () => ({ message: vscode.l10n.t('GigaChat had a problem on its side. Try again in a moment.'), actions: ['retry', 'openLogs'] }),
    network: () =>
      error.code === NOT_TLS_CODE
        ? {
            message: vscode.l10n.t(
              'The server did not answer with a secure connection: the port or the scheme of an address is probably wrong. ' +
                'Check the GigaChat addresses in the settings, and the proxy: ' +
                'a proxy that speaks plain http is written http://, not https://.',
            ),
            actions: ['openSettings', 'proxySettings', 'openLogs'],
          }
        : {
            message: vscode.l10n.t('Could not connect to GigaChat. Check your network connection and proxy settings.'),
            actions: ['retry', 'openSettings', 'openLogs'],
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
            actions: ['trustRootCertificate', 'chooseCertificateFile', 'certificateHelp'],
          }
        : {
            message: vscode.l10n.t(
              'The secure connection to GigaChat failed ({0}): ' +
                "the server's certificate has expired, is not valid yet, or was issued for another name. " +
                "Check the computer's date and the addresses in the settings.",
              error.code ?? 'TLS',
            ),
            actions: ['certificateHelp', 'openSettings', 'openLogs'],
          },
    timeout: () => ({ message: vscode.l10n.t('GigaChat did not answer in time.'), actions: ['retry', 'openLogs'] }),
    protocol: () => explainProtocol(error),
  };
  if (error.kind === 'cancelled') return { message: vscode.l10n.t('Stopped.'), actions: [] };
  if (error.code === ATTACHMENTS_REFUSED) return explainRefusedPictures(error);
  return texts[error.kind]();
}

/**
 * The service refused a question's pictures. Unknown to it (404) or not this window's (403), they
 * are uploaded again by Retry; otherwise the model does not see pictures, as the contract says to
 * read any other refusal: the user is told which models do, with a button that switches to one.
 */
function explainRefusedPictures(error: ServiceError): { message: string; actions: ErrorAction[] } {
  if (error.status === 403 || error.status === 404) {
    return {
      message: vscode.l10n.t('GigaChat no longer has the pictures attached to the question. Retry uploads them again.'),
      actions: ['retry', 'openLogs'],
    };
  }
  return {
    message: vscode.l10n.t(
      'The model {0} cannot see pictures, so GigaChat refused the question with its pictures. GigaChat-2-Pro and GigaChat-2-Max ' +
        'see them: switch to one and the question is asked again, or edit the question to ask without the pictures.',
      readSettings().model,
    ),
    actions: ['useVisionModel', 'openLogs'],
  };
}

/** The service's 400/422, or an address in the settings that the client would not even send to. */
function explainInvalidRequest(error: ServiceError): { message: string; actions: ErrorAction[] } {
  const setting = invalidUrlSetting(error);
  if (setting) {
    return {
      message: vscode.l10n.t('The setting {0} is not an https:// address. Correct it in the settings, or reset it to the default.', settingId(setting)),
      actions: ['openSettings'],
    };
  }
  return { message: vscode.l10n.t('GigaChat rejected the request as invalid. The log has the details.'), actions: ['openLogs', 'retry'] };
}

/** An answer that does not match the contract, or one larger than the extension accepts. */
function explainProtocol(error: ServiceError): { message: string; actions: ErrorAction[] } {
  const limit = sizeText(error.limitBytes ?? 0);
  switch (error.code) {
    case 'PICTURE_TOO_LARGE':
      return { message: vscode.l10n.t('it is larger than {0}, the most a GigaChat picture can be.', limit), actions: ['openLogs'] };
    case 'RESPONSE_TOO_LARGE':
    case 'EVENT_TOO_LARGE':
      return {
        message: vscode.l10n.t(
          "GigaChat's answer was larger than {0}, the most the extension accepts for it. " +
            "Something else may be answering in GigaChat's place (a proxy, or a wrong address in the settings): " +
            'the log has the details.',
          limit,
        ),
        actions: ['retry', 'openSettings', 'openLogs'],
      };
    case 'EMBEDDING_DIMENSIONS_CHANGED':
      return {
        message: vscode.l10n.t(
          "GigaChat's embeddings model now gives vectors of another size than the search index holds, so the index is built again: search again.",
        ),
        actions: ['retry'],
      };
    default:
      return { message: vscode.l10n.t('GigaChat sent a reply the extension could not read. The log has the details.'), actions: ['retry', 'openLogs'] };
  }
}

/** `15 MB`, `64 KB`: a limit as the user reads it. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? vscode.l10n.t('{0} MB', String(Math.round(bytes / 1024 / 1024))) : vscode.l10n.t('{0} KB', String(Math.round(bytes / 1024)));
}

/** Proxy failures name the proxy and where it was set, never its credentials. */
function explainProxy(error: ServiceError): { message: string; actions: ErrorAction[] } {
  const address = error.proxy?.address ?? '';
  const source = error.proxy?.source ?? 'http.proxy';
  switch (error.code) {
    case 'PROXY_AUTH_REJECTED':
      return {
        message: vscode.l10n.t('The proxy {0} refused the credentials set in {1}. Check the user name and password.', address, source),
        actions: ['proxySettings', 'retry', 'openLogs'],
      };
    case 'PROXY_AUTH_REQUIRED':
      return {
        message: vscode.l10n.t('The proxy {0} asks for a user name and password. Add them to {1}, as http://user:password@host:port.', address, source),
        actions: ['proxySettings', 'retry'],
      };
    case 'PROXY_UNREACHABLE':
      return {
        message: vscode.l10n.t('Could not connect to the proxy {0} set in {1}. Check the proxy address and that the proxy is running.', address, source),
        actions: ['retry', 'proxySettings', 'openLogs'],
      };
    case 'PROXY_SILENT':
      return {
        message: vscode.l10n.t(
          'The proxy {0} set in {1} accepted the connection but did not pass it on to GigaChat in time. ' +
            'Check the proxy address, or ask your network administrator whether the proxy is working.',
          address,
          source,
        ),
        actions: ['retry', 'proxySettings', 'openLogs'],
      };
    case 'PROXY_CREDENTIALS_ENCODING':
      return {
        message: vscode.l10n.t(
          'The user name or password of the proxy set in {0} holds a % that is not followed by two hexadecimal digits. ' +
            'In a proxy address, write % as %25 (and @ as %40, : as %3A).',
          source,
        ),
        actions: ['proxySettings'],
      };
    case 'PROXY_INVALID':
      return { message: vscode.l10n.t('The proxy address in {0} is not a valid URL. Use the form http://host:port.', source), actions: ['proxySettings'] };
    default:
      return {
        message: vscode.l10n.t(
          'The proxy {0} did not let the connection to GigaChat through (status {1}). ' +
            'Ask your network administrator to allow GigaChat, or list its hosts in http.noProxy.',
          address,
          String(error.proxy?.status ?? ''),
        ),
        actions: ['retry', 'proxySettings', 'openLogs'],
      };
  }
}

export function actionLabel(action: ErrorAction): string {
  return vscode.l10n.t(webviewStrings[ACTION_LABELS[action]]);
}

/** What an error's buttons run that belongs to other features: typed calls, not command ids. */
export interface ErrorFixes {
  setAuthorizationKey(): Promise<unknown>;
  /** Each resolves true once the certificate is trusted, so what failed can be retried. */
  trustRootCertificate(): Promise<boolean>;
  addTrustedCertificate(): Promise<boolean>;
  certificateHelp(): Promise<unknown>;
  /** Selects a chat model that sees pictures; resolves true once it is selected, so the question can be asked again. */
  useVisionModel(): Promise<boolean>;
  /** Asks to index the workspace (the search command's consent), then indexes; resolves true once the index is ready, so the question can be asked again. */
  allowIndexing(): Promise<boolean>;
}

let fixes: ErrorFixes | undefined;

/** Gives the error buttons the features they run; services.ts calls it as it builds them, before any error can be shown. */
export function provideErrorFixes(provided: ErrorFixes): void {
  fixes = provided;
}

function errorFixes(): ErrorFixes {
  if (!fixes) throw new Error('An error button was used before the features it runs were built');
  return fixes;
}

/**
 * Carries out an error's button. `retry` is the caller's, since only it knows what to repeat; the
 * certificate buttons retry too once the certificate is trusted, so the failed request goes on.
 */
export async function runErrorAction(action: ErrorAction, log: Log, retry?: () => unknown): Promise<void> {
  switch (action) {
    case 'setKey':
      await errorFixes().setAuthorizationKey();
      return;
    case 'openAccount':
      await vscode.env.openExternal(vscode.Uri.parse('https://developers.sber.ru/studio/'));
      return;
    case 'retry':
      await retry?.();
      return;
    case 'trustRootCertificate':
      if (await errorFixes().trustRootCertificate()) await retry?.();
      return;
    case 'chooseCertificateFile':
      if (await errorFixes().addTrustedCertificate()) await retry?.();
      return;
    case 'certificateHelp':
      await errorFixes().certificateHelp();
      return;
    case 'openLogs':
      log.show();
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:gigachat-vscode.gigachat');
      return;
    case 'proxySettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'http.proxy');
      return;
    case 'useVisionModel':
      if (await errorFixes().useVisionModel()) await retry?.();
      return;
    case 'allowIndexing':
      if (await errorFixes().allowIndexing()) await retry?.();
      return;
  }
}

/** A notification with the error's buttons (for commands that run outside the chat view). */
export async function showErrorNotification(error: unknown, log: Log, retry?: () => unknown): Promise<void> {
  const described = describeError(error, log);
  if (described.kind === 'cancelled') return;
  const actions = described.actions.filter((a) => a !== 'retry' || retry);
  const action = await askErrorAction(described.message, actions);
  if (action) await runErrorAction(action, log, retry);
}

/** Shows `message` as an error notification with a button per action; resolves to the one clicked. */
export async function askErrorAction<Action extends ErrorAction>(message: string, actions: readonly Action[]): Promise<Action | undefined> {
  const chosen = await vscode.window.showErrorMessage(message, ...actions.map(actionLabel));
  return actions.find((action) => actionLabel(action) === chosen);
}
