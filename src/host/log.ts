import * as vscode from 'vscode';
import { redactSecrets, type Logger } from '../core';
import { Disposable } from './dispose';

/**
 * The "GigaChat" log channel. Errors' technical detail and request ids go here, never into
 * notifications. Every line passes through `redact` first: the core never logs secrets, and this
 * is the second lock on that door.
 */
export class Log extends Disposable implements Logger {
  readonly channel = this._register(vscode.window.createOutputChannel('GigaChat', { log: true }));
  private readonly secrets = new Set<string>();

  /** Registers a value that must never appear in the log (the authorization key). */
  addSecret(value: string | undefined): void {
    if (value && value.length >= 8) this.secrets.add(value);
  }

  debug(message: string): void {
    this.channel.debug(this.redact(message));
  }
  info(message: string): void {
    this.channel.info(this.redact(message));
  }
  warn(message: string): void {
    this.channel.warn(this.redact(message));
  }
  error(message: string): void {
    this.channel.error(this.redact(message));
  }

  show(): void {
    this.channel.show(true);
  }

  private redact(message: string): string {
    let safe = message;
    for (const secret of this.secrets) safe = safe.split(secret).join('[redacted]');
    // Tokens, credentials and token-like fields never belong in a log, whoever wrote the line.
    return redactSecrets(safe);
  }
}
