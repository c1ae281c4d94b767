import { X509Certificate } from 'node:crypto';
import { certificatesFromFile } from './trust';

/**
 * A certificate known in advance by the SHA-256 fingerprint of its DER form. Whatever claims to be
 * this certificate is trusted only if it hashes to exactly this fingerprint: the subject, the
 * address it came from and the TLS connection it came over prove nothing.
 */
export interface CertificatePin {
  /** The subject as people read it, e.g. `CN=Russian Trusted Root CA, O=…, C=RU`. */
  subject: string;
  /** SHA-256 of the DER certificate, hex, colons optional (`D2:6D:…` or `d26d…`). */
  sha256: string;
  /** Official addresses to download the certificate from, tried in order. */
  downloadUrls: string[];
  /** A page people can read about the certificate. */
  moreInformation?: string;
}

/** What a person needs to recognise a certificate, and its PEM for the trusted roots. */
export interface CertificateSummary {
  /** `CN=…, O=…, C=…` (most specific part first, as RFC 4514 writes it). */
  subject: string;
  issuer: string;
  /** SHA-256 of the DER form, `AB:CD:…`, upper case. */
  sha256: string;
  validFrom: Date;
  validTo: Date;
  /** A certificate authority may sign others; only such a certificate can be a root of a chain. */
  isCertificateAuthority: boolean;
  /** Subject and issuer are the same: a root. */
  selfIssued: boolean;
  pem: string;
}

/** The bytes (or text) hold no certificate, or not exactly the one that was expected. */
export class NotACertificateError extends Error {
  override readonly name = 'NotACertificateError';
}

/** A certificate that does not hash to the pinned fingerprint: it must not be trusted. */
export class PinMismatchError extends Error {
  override readonly name = 'PinMismatchError';
  constructor(
    /** The pinned fingerprint, `AB:CD:…`. */
    readonly expected: string,
    /** The fingerprint of what was offered, `AB:CD:…`. */
    readonly actual: string,
    /** The subject the offered certificate claims (an impostor may claim the right one). */
    readonly subject: string,
  ) {
    super(`The certificate "${subject}" has the SHA-256 fingerprint ${actual}, not the pinned ${expected}.`);
  }
}

/** Every certificate in a PEM file (one or several) or a DER file. An empty list if there is none. */
export function readCertificates(input: Uint8Array | string): CertificateSummary[] {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  const summaries: CertificateSummary[] = [];
  for (const pem of certificatesFromFile(bytes)) {
    const summary = summarize(pem);
    if (summary) summaries.push(summary);
  }
  return summaries;
}

/** Exactly one certificate, PEM or DER; anything else is a `NotACertificateError`. */
export function readSingleCertificate(input: Uint8Array | string): CertificateSummary {
  const certificates = readCertificates(input);
  if (certificates.length !== 1) {
    throw new NotACertificateError(
      certificates.length === 0 ? 'No certificate found (expected PEM or DER).' : `Expected one certificate, found ${certificates.length}.`,
    );
  }
  return certificates[0];
}

/**
 * Checks a downloaded or stored certificate (PEM or DER) against its pin. Returns it when the
 * fingerprints are equal; throws `PinMismatchError` naming both fingerprints otherwise, or
 * `NotACertificateError` when the input is not exactly one certificate.
 */
export function checkPin(input: Uint8Array | string, pin: Pick<CertificatePin, 'sha256'>): CertificateSummary {
  const certificate = readSingleCertificate(input);
  const expected = formatFingerprint(pin.sha256);
  if (certificate.sha256 !== expected) throw new PinMismatchError(expected, certificate.sha256, certificate.subject);
  return certificate;
}

/** `d26d2d…` or `D2:6D:2D:…` or `D2 6D …` → `D2:6D:2D:…`. */
export function formatFingerprint(fingerprint: string): string {
  const hex = fingerprint.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return hex.match(/.{2}/g)?.join(':') ?? '';
}

/** Summary of one DER certificate (the form TLS hands over). */
export function summarizeDer(der: Uint8Array): CertificateSummary | undefined {
  return readCertificates(der)[0];
}

/** Node writes names one attribute per line, in certificate order (`C=RU\nO=…\nCN=…`). */
export function readableName(name: string): string {
  return name.split('\n').filter(Boolean).reverse().join(', ');
}

function summarize(pem: string): CertificateSummary | undefined {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    return undefined; // base64 that is not a certificate, e.g. a PEM block of another kind
  }
  return {
    subject: readableName(certificate.subject),
    issuer: readableName(certificate.issuer),
    sha256: certificate.fingerprint256.toUpperCase(),
    validFrom: new Date(certificate.validFrom),
    validTo: new Date(certificate.validTo),
    isCertificateAuthority: certificate.ca,
    selfIssued: certificate.subject === certificate.issuer,
    pem: certificate.toString(),
  };
}
