import { NotACertificateError, PinMismatchError, checkPin, type CertificatePin, type CertificateSummary } from './certificatePin';
import { ServiceError } from '../serviceError';
import { Transport, discardBody, redactUrl, type HttpResponse, type ProxyOptions } from './http';
import { silentLogger, type Logger } from '../base/logger';
import { describeTransportError } from './transportErrors';

/** Why a pinned certificate could not be downloaded; the VS Code layer words each for the user. */
export type DownloadFailure =
  /** No answer: DNS, refused connection, proxy, timeout, or the download host's own certificate. */
  | { kind: 'unreachable'; url: string; cause: ServiceError }
  /** The server (or a proxy on the way) answered with an error status. */
  | { kind: 'refused'; url: string; status: number }
  /** An answer came, but it is not a certificate (a login page of a proxy, an error page…). */
  | { kind: 'notCertificate'; url: string }
  /** A certificate came, but not the pinned one. Nothing may be trusted. */
  | { kind: 'mismatch'; url: string; expected: string; actual: string; subject: string };

export class PinnedDownloadError extends Error {
  override readonly name = 'PinnedDownloadError';
  constructor(readonly failure: DownloadFailure) {
    super(describeFailure(failure));
  }
}

export interface PinnedDownloadOptions {
  /** Extra trusted roots (PEM) for the download's own TLS connection, added to Node's defaults. */
  ca?: readonly string[];
  proxy?: ProxyOptions;
  signal?: AbortSignal;
  /** Longest wait for an answer, in ms (default 30 000). */
  timeoutMs?: number;
  logger?: Logger;
}

/** A certificate is a few kilobytes; anything far bigger is not one, and is not read to the end. */
const MAX_BYTES = 64 * 1024;
const MAX_REDIRECTS = 5;

/**
 * Downloads the pinned certificate from its official addresses, in order, and returns it only if
 * it hashes to the pin. The download goes through the same proxy and trusted roots as the service
 * (verification stays on: the pin guards what is trusted, TLS guards privacy). Throws
 * `PinnedDownloadError` when no address gave the pinned certificate; a mismatch anywhere is
 * reported before any other failure, since it may mean someone tampers with the download.
 */
export async function downloadPinnedCertificate(
  pin: CertificatePin,
  options: PinnedDownloadOptions = {},
): Promise<{ certificate: CertificateSummary; url: string }> {
  const logger = options.logger ?? silentLogger;
  const transport = new Transport({ ca: options.ca, proxy: options.proxy, timeoutMs: options.timeoutMs ?? 30_000, logger });
  const failures: DownloadFailure[] = [];
  try {
    for (const url of pin.downloadUrls) {
      try {
        const certificate = checkPin(await fetchSmall(transport, url, options.signal), pin);
        logger.info(`Downloaded ${certificate.subject} (SHA-256 ${certificate.sha256}) from ${redactUrl(url)}; it matches the pin.`);
        return { certificate, url };
      } catch (error) {
        if (error instanceof ServiceError && error.kind === 'cancelled') throw error;
        const failure = failureOf(error, url);
        logger.warn(describeFailure(failure));
        failures.push(failure);
      }
    }
  } finally {
    await transport.close().catch(() => undefined);
  }
  const mismatch = failures.find((f) => f.kind === 'mismatch');
  throw new PinnedDownloadError(mismatch ?? failures.at(-1) ?? { kind: 'refused', url: '(no download address)', status: 0 });
}

class RefusedError extends Error {
  constructor(readonly status: number) {
    super(`status ${status}`);
  }
}

/** GET with redirects followed (the pin makes any hop safe), the body capped at MAX_BYTES. */
async function fetchSmall(transport: Transport, firstUrl: string, signal: AbortSignal | undefined): Promise<Buffer> {
  let url = firstUrl;
  for (let hop = 0; ; hop++) {
    const res = await transport.send({ method: 'GET', url, headers: { Accept: 'application/pkix-cert, application/x-x509-ca-cert, */*' }, signal });
    const location = res.status >= 300 && res.status < 400 ? res.location : undefined;
    if (location && hop < MAX_REDIRECTS) {
      discardBody(res);
      url = new URL(location, url).toString();
      continue;
    }
    if (res.status < 200 || res.status >= 300) {
      discardBody(res);
      throw new RefusedError(res.status);
    }
    return readCapped(res, url, signal);
  }
}

async function readCapped(res: HttpResponse, url: string, signal: AbortSignal | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BYTES) {
        discardBody(res);
        throw new NotACertificateError(`The answer is larger than ${MAX_BYTES} bytes.`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof NotACertificateError) throw error;
    throw describeTransportError(error, url, signal);
  }
  return Buffer.concat(chunks);
}

function failureOf(error: unknown, url: string): DownloadFailure {
  if (error instanceof PinMismatchError) return { kind: 'mismatch', url, expected: error.expected, actual: error.actual, subject: error.subject };
  if (error instanceof NotACertificateError) return { kind: 'notCertificate', url };
  if (error instanceof RefusedError) return { kind: 'refused', url, status: error.status };
  return { kind: 'unreachable', url, cause: error instanceof ServiceError ? error : describeTransportError(error, url) };
}

function describeFailure(failure: DownloadFailure): string {
  const where = redactUrl(failure.url);
  switch (failure.kind) {
    case 'unreachable':
      return `Could not download the certificate from ${where}: ${failure.cause.message}`;
    case 'refused':
      return `${where} refused the certificate download (HTTP ${failure.status}).`;
    case 'notCertificate':
      return `What ${where} sent is not a single certificate.`;
    case 'mismatch':
      return `The certificate from ${where} ("${failure.subject}") has the SHA-256 fingerprint ${failure.actual}, not the pinned ${failure.expected}: refused.`;
  }
}
