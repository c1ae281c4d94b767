import pinData from '../../../certs/russian-trusted-root-ca.json';
import type { CertificatePin } from './certificatePin';

/**
 * The Russian Trusted Root CA (Ministry of Digital Development), which issues the certificates of
 * GigaChat's servers and which most systems do not trust yet. The pin data lives in `certs/`, the
 * project's one place for certificate facts, and is bundled in at build time.
 */
export const RUSSIAN_TRUSTED_ROOT_PIN: Readonly<CertificatePin> = Object.freeze({
  subject: pinData.subject,
  sha256: pinData.sha256,
  downloadUrls: [...pinData.downloadUrls],
  moreInformation: pinData.moreInformation,
});
