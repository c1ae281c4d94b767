import * as tls from 'node:tls';

/**
 * The roots a connection trusts: Node's default roots (its bundled list, plus NODE_EXTRA_CA_CERTS
 * where the runtime can list them), the operating system's store where the runtime exposes it,
 * and the caller's extra roots (PEM).
 *
 * In Node, giving a TLS connection a `ca` list *replaces* the default roots, so the defaults are
 * always put back in first: adding the Russian Trusted Root CA must never make every other
 * site untrusted. Verification itself is never switched off anywhere in this project.
 */
export function trustedRoots(extraPem: readonly string[] = []): string[] {
  const roots = new Set<string>(tls.rootCertificates);
  for (const pem of runtimeRoots('default')) roots.add(pem);
  for (const pem of runtimeRoots('system')) roots.add(pem);
  for (const pem of extraPem) {
    for (const single of splitPemBundle(pem)) roots.add(single);
  }
  return [...roots];
}

/**
 * `tls.getCACertificates` exists from Node 22.15/23.5 on; older runtimes lack it. 'default' adds
 * NODE_EXTRA_CA_CERTS, which companies often set for their inspecting proxy, to the bundled list.
 */
function runtimeRoots(type: 'default' | 'system'): readonly string[] {
  const getCACertificates = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  if (typeof getCACertificates !== 'function') return [];
  try {
    return getCACertificates(type);
  } catch {
    return []; // a store that cannot be read must not break connections that do not need it
  }
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** A PEM file may hold several certificates; each is a root of its own. */
export function splitPemBundle(pem: string): string[] {
  return pem.match(PEM_BLOCK)?.map((block) => block.replace(/\r\n/g, '\n')) ?? [];
}

/**
 * Certificates from a file, as PEM: a PEM file (one or several certificates) or a single DER
 * certificate (Windows exports and the official download of the Russian Trusted Root CA may be
 * either).
 */
export function certificatesFromFile(bytes: Uint8Array): string[] {
  const text = Buffer.from(bytes).toString('latin1');
  if (text.includes('-----BEGIN CERTIFICATE-----')) return splitPemBundle(text);
  // DER: an ASN.1 SEQUENCE (0x30). Anything else is not a certificate we can use.
  if (bytes.length < 64 || bytes[0] !== 0x30) return [];
  const base64 = Buffer.from(bytes).toString('base64').replace(/.{64}/g, '$&\n');
  return [`-----BEGIN CERTIFICATE-----\n${base64.replace(/\n$/, '')}\n-----END CERTIFICATE-----`];
}
