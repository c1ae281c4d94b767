import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomically } from '../base/atomicFile';
import { PinMismatchError, checkPin, type CertificatePin, type CertificateSummary } from './certificatePin';
import { silentLogger, type Logger } from '../base/logger';
import { downloadPinnedCertificate, type PinnedDownloadOptions } from './pinnedDownload';

/**
 * The pinned root the user chose to trust, kept as a PEM file (the extension's global storage).
 * It is checked against the pin every time it is read, so a file changed on disk, or a pin that
 * changed with an update, never makes an unexpected certificate trusted.
 */
export class PinnedRootFile {
  constructor(
    readonly path: string,
    private readonly pin: CertificatePin,
    private readonly logger: Logger = silentLogger,
  ) {}

  /** The stored certificate, if there is one and it still matches the pin. */
  async load(): Promise<CertificateSummary | undefined> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.path);
    } catch {
      return undefined; // not trusted yet
    }
    try {
      return checkPin(bytes, this.pin);
    } catch (error) {
      const reason = error instanceof PinMismatchError ? error.message : 'it holds no single certificate';
      this.logger.warn(`The stored root certificate ${this.path} is ignored: ${reason}`);
      return undefined;
    }
  }

  /** Stores a certificate that matches the pin (checked again here: only a match is ever written). */
  async save(certificate: CertificateSummary): Promise<void> {
    const checked = checkPin(certificate.pem, this.pin);
    await mkdir(dirname(this.path), { recursive: true });
    await writeFileAtomically(this.path, checked.pem); // a reader never sees half a certificate
  }

  /**
   * Downloads the pinned certificate from its official addresses and stores it if, and only if,
   * it matches the pin. Throws `PinnedDownloadError` otherwise, and nothing is stored.
   */
  async downloadAndStore(options: PinnedDownloadOptions = {}): Promise<{ certificate: CertificateSummary; url: string }> {
    const downloaded = await downloadPinnedCertificate(this.pin, { logger: this.logger, ...options });
    await this.save(downloaded.certificate);
    this.logger.info(`Trusted ${downloaded.certificate.subject} (SHA-256 ${downloaded.certificate.sha256}); stored in ${this.path}.`);
    return downloaded;
  }
}
