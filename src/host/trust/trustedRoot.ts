import * as vscode from 'vscode';
import { PinnedRootFile, type CertificatePin, type CertificateSummary, type PinnedDownloadOptions } from '../../core';
import { Disposable } from '../dispose';
import type { Log } from '../log';

/**
 * The pinned root (the Russian Trusted Root CA) once the user has chosen to trust it: a file in
 * the extension's global storage, re-checked against the pin each time it is read. Connections
 * are rebuilt when it changes.
 */
export class TrustedRoot extends Disposable {
  private readonly file: PinnedRootFile;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    globalStorage: vscode.Uri,
    readonly pin: CertificatePin,
    log: Log,
  ) {
    super();
    this.file = new PinnedRootFile(vscode.Uri.joinPath(globalStorage, 'trusted-root-ca.pem').fsPath, pin, log);
  }

  /** The trusted root, or undefined while the user has not trusted it (or the file no longer matches). */
  load(): Promise<CertificateSummary | undefined> {
    return this.file.load();
  }

  /** Downloads the root from its official address, stores it if it matches the pin, and reconnects. */
  async downloadAndTrust(options: PinnedDownloadOptions): Promise<CertificateSummary> {
    const { certificate } = await this.file.downloadAndStore(options);
    this.changed.fire();
    return certificate;
  }
}
