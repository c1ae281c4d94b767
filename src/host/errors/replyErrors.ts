import * as vscode from 'vscode';
import { invalidUrlSetting, NOT_A_STREAM, STREAM_CUT, streamsOfScope, type ServiceError } from '../../core';
import type { ErrorAction } from '../../shared/protocol';
import { settingId } from '../../shared/settings';

/**
 * What the user reads when the service refused or garbled an answer, or a setting kept the request
 * from being sent (errors.ts picks these by the error's kind), with the buttons that fix it.
 */

/**
 * The service refused a question's pictures. Unknown to it (404) or not this window's (403), they
 * are uploaded again by Retry; otherwise the model does not see pictures, as the contract says to
 * read any other refusal: the user is told which models do, with a button that switches to one.
 * @param model the chat model in the settings
 */
export function explainRefusedPictures(error: ServiceError, model: string): { message: string; actions: ErrorAction[] } {
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
      model,
    ),
    actions: ['useVisionModel', 'openLogs'],
  };
}

/**
 * A 429 that outlasted the wait for the account's stream: the requests of this window were done,
 * so another request with the same key holds it (service-api.md §12): another program, or a window
 * on another machine. A personal key has one stream, a business key ten.
 * @param scope the key's scope in the settings
 */
export function explainStreamsBusy(scope: string): { message: string; actions: ErrorAction[] } {
  const message =
    streamsOfScope(scope) === 1
      ? vscode.l10n.t(
          "GigaChat refused the request: another request with the same authorization key, from another program or VS Code window, holds the account's only stream. Retry once it has finished.",
        )
      : vscode.l10n.t(
          "GigaChat refused the request: other requests with the same authorization key, from other programs or VS Code windows, hold all the account's streams. Retry once one has finished.",
        );
  return { message, actions: ['retry', 'openLogs'] };
}

/** The service's 400/422, or an address in the settings that the client would not even send to. */
export function explainInvalidRequest(error: ServiceError): { message: string; actions: ErrorAction[] } {
  const setting = invalidUrlSetting(error);
  if (setting) {
    return {
      message: vscode.l10n.t('The setting {0} is not an https:// address. Correct it in the settings, or reset it to the default.', settingId(setting)),
      actions: ['addressSettings'],
    };
  }
  return { message: vscode.l10n.t('GigaChat rejected the request as invalid. The log has the details.'), actions: ['openLogs', 'retry'] };
}

/** An answer that does not match the contract, or one larger than the extension accepts. */
export function explainProtocol(error: ServiceError): { message: string; actions: ErrorAction[] } {
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
        actions: ['retry', 'addressSettings', 'openLogs'],
      };
    case STREAM_CUT:
      return {
        message: vscode.l10n.t(
          "GigaChat's reply stopped before it was complete: the connection was closed early, perhaps by a proxy or the network. Retry asks again.",
        ),
        actions: ['retry', 'checkConnection', 'openLogs'],
      };
    case NOT_A_STREAM:
      return {
        message: vscode.l10n.t(
          'GigaChat was asked for a reply as it is written, but something answered with a whole page instead: ' +
            'a proxy, or a wrong address in the settings. The log has what came.',
        ),
        actions: ['retry', 'addressSettings', 'proxySettings', 'openLogs'],
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
