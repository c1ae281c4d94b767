import * as vscode from 'vscode';
import { formatFingerprint, type CertificatePin, type CertificateSummary } from '../../core';

/**
 * A certificate as a person checks it before trusting it: who it names, who issued it, its
 * SHA-256 fingerprint (what an IT department publishes), its validity, and anything unusual.
 */
export function describeCertificate(certificate: CertificateSummary, pin: CertificatePin, now = new Date()): string {
  const date = (value: Date) => value.toLocaleDateString(vscode.env.language);
  const lines = [
    certificate.subject,
    vscode.l10n.t('Issued by: {0}', certificate.selfIssued ? vscode.l10n.t('itself (a root certificate)') : certificate.issuer),
    vscode.l10n.t('SHA-256: {0}', certificate.sha256),
    vscode.l10n.t('Valid from {0} to {1}', date(certificate.validFrom), date(certificate.validTo)),
  ];
  if (certificate.sha256 === formatFingerprint(pin.sha256)) lines.push(vscode.l10n.t('This is the official Russian Trusted Root CA: the fingerprint matches.'));
  if (!certificate.isCertificateAuthority)
    lines.push(
      vscode.l10n.t('Note: this is not a certificate authority, so it cannot vouch for the server. Choose the root certificate of the chain instead.'),
    );
  if (certificate.validTo < now) lines.push(vscode.l10n.t('Note: this certificate has expired.'));
  return lines.join('\n');
}
