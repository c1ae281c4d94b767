import * as vscode from 'vscode';
import type { ErrorAction, TurnError } from '../../shared/protocol';
import { asServiceError, type ServiceErrorKind } from '../../core';
import { explainInternal, failureLine } from '../errors/errorDescription';
import type { Log } from '../log';

/**
 * A self-hosted completion server's failure, in the user's words. Not describeError's: that one
 * speaks of GigaChat's service, its key and its account, and none of them is at fault here. The
 * server's own answer and the request id go to the log.
 */
export function describeServerError(error: unknown, server: string, log: Log): TurnError {
  const failure = asServiceError(error);
  log.error(`Completion server ${server}: ${failureLine(failure)}`);
  const { message, actions } = explain(failure.kind, failure.code, server);
  return { kind: failure.kind, message, actions, requestId: failure.requestId };
}

function explain(kind: ServiceErrorKind, code: string | undefined, server: string): { message: string; actions: ErrorAction[] } {
  if (code === 'INVALID_SERVER_URL')
    return {
      message: vscode.l10n.t('The completion server address “{0}” is not an http(s) address. Correct it in the settings.', server),
      actions: ['openSettings'],
    };
  switch (kind) {
    case 'internal':
      return explainInternal();
    case 'network':
    case 'timeout':
      return {
        message: vscode.l10n.t('The completion server {0} did not answer. Check that it is running and that the address in the settings is right.', server),
        actions: ['openSettings', 'openLogs'],
      };
    case 'proxy':
      return {
        message: vscode.l10n.t('The proxy did not let the request to the completion server {0} through.', server),
        actions: ['proxySettings', 'openLogs'],
      };
    case 'tls':
      return {
        message: vscode.l10n.t('The certificate of the completion server {0} could not be verified. Add its root certificate as for GigaChat.', server),
        actions: ['chooseCertificateFile', 'certificateHelp'],
      };
    case 'auth':
    case 'forbidden':
      return {
        message: vscode.l10n.t('The completion server {0} refused the request: it needs a token. Set it with “GigaChat: Set Completion Server Token”.', server),
        actions: ['openLogs'],
      };
    case 'notFound':
      return {
        message: vscode.l10n.t(
          'The completion server {0} does not know the model or the path asked for. Check the server type and the model in the settings.',
          server,
        ),
        actions: ['openSettings', 'openLogs'],
      };
    default:
      return { message: vscode.l10n.t('The completion server {0} could not write a suggestion. The log has its answer.', server), actions: ['openLogs'] };
  }
}
