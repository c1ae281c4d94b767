import * as vscode from 'vscode';
import { isServiceError } from '../../core';
import { describeError } from '../errors/errorDescription';
import type { Log } from '../log';

/**
 * A failure as VS Code's language model API reports it to whoever asked (the Chat view, another
 * extension): cancelled as a CancellationError, the rest as a LanguageModelError carrying this
 * extension's plain-words message (the detail and request id go to the log).
 */
export function languageModelError(error: unknown, log: Log): Error {
  if (isServiceError(error) && error.kind === 'cancelled') return new vscode.CancellationError();
  const { kind, message } = describeError(error, log);
  if (kind === 'auth' || kind === 'forbidden' || kind === 'payment') return vscode.LanguageModelError.NoPermissions(message);
  if (kind === 'notFound') return vscode.LanguageModelError.NotFound(message);
  return new vscode.LanguageModelError(message);
}
