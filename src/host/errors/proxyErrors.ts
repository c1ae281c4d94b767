import * as vscode from 'vscode';
import type { ServiceError } from '../../core';
import type { ErrorAction } from '../../shared/protocol';

/** Proxy failures name the proxy and where it was set, never its credentials. */
export function explainProxy(error: ServiceError): { message: string; actions: ErrorAction[] } {
  const address = error.proxy?.address ?? '';
  const source = error.proxy?.source ?? 'http.proxy';
  switch (error.code) {
    case 'PROXY_AUTH_REJECTED':
      return {
        message: vscode.l10n.t('The proxy {0} refused the credentials set in {1}. Check the user name and password.', address, source),
        actions: ['proxySettings', 'retry', 'checkConnection', 'openLogs'],
      };
    case 'PROXY_AUTH_REQUIRED':
      return {
        message: vscode.l10n.t('The proxy {0} asks for a user name and password. Add them to {1}, as http://user:password@host:port.', address, source),
        actions: ['proxySettings', 'retry'],
      };
    case 'PROXY_UNREACHABLE':
      return {
        message: vscode.l10n.t('Could not connect to the proxy {0} set in {1}. Check the proxy address and that the proxy is running.', address, source),
        actions: ['retry', 'proxySettings', 'checkConnection', 'openLogs'],
      };
    case 'PROXY_SILENT':
      return {
        message: vscode.l10n.t(
          'The proxy {0} set in {1} accepted the connection but did not pass it on to GigaChat in time. ' +
            'Check the proxy address, or ask your network administrator whether the proxy is working.',
          address,
          source,
        ),
        actions: ['retry', 'proxySettings', 'checkConnection', 'openLogs'],
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
        actions: ['retry', 'proxySettings', 'checkConnection', 'openLogs'],
      };
  }
}
