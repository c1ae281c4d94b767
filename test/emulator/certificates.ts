// Generates a throwaway CA and a server certificate it signs, with the openssl CLI.
// Why a private CA instead of a self-signed leaf: the real service chains to a root that Node does
// not trust, so the client must learn to add an extra CA; the emulator reproduces exactly that.
// Nothing is cached: every start makes fresh keys, so no test depends on leftovers.
import { execFile } from 'node:child_process';
import { X509Certificate, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CA_SUBJECT = '/CN=GigaChat Emulator Test Root CA';

export interface Certificates {
  dir: string;
  /** True when dir was created here (a temp dir) and should be removed on stop. */
  ownsDir: boolean;
  caPem: string;
  caDer: Buffer;
  caPath: string;
  serverKeyPem: string;
  serverCertPem: string;
}

/** Our own config, so the result does not depend on the system openssl.cnf and its default extensions. */
const OPENSSL_CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[v3_server]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = IP:127.0.0.1, DNS:localhost
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
`;

/** Runs openssl without a shell (arguments are passed as an array, so nothing is interpreted). */
function openssl(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile('openssl', args, { cwd }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`openssl ${args[0]} failed: ${stderr || error.message}`));
      else resolve();
    });
  });
}

/** EC P-256 keys: generating them takes milliseconds, unlike RSA. */
const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
/** Short validity: the files are thrown away after the run anyway. */
const DAYS = '2';

export async function generateCertificates(certDir?: string, caSubject = CA_SUBJECT): Promise<Certificates> {
  const ownsDir = certDir === undefined;
  const dir = certDir ?? (await mkdtemp(join(tmpdir(), 'gigachat-emulator-')));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'openssl.cnf'), OPENSSL_CONFIG);

  const config = ['-config', 'openssl.cnf'];
  await openssl(['req', '-x509', ...EC_KEY, '-keyout', 'ca.key', '-out', 'ca.pem', '-days', DAYS, '-subj', caSubject, ...config, '-extensions', 'v3_ca'], dir);
  await openssl(['req', '-new', ...EC_KEY, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost', ...config], dir);
  // A random serial avoids openssl's ca.srl bookkeeping file.
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-set_serial',
      `0x${randomBytes(12).toString('hex')}`,
      '-days',
      DAYS,
      '-sha256',
      '-extfile',
      'openssl.cnf',
      '-extensions',
      'v3_server',
      '-out',
      'server.pem',
    ],
    dir,
  );
  // The CA key is not needed any more: deleting it means a user who trusts ca.pem (CLI runs write it
  // to a stable path) cannot have anything else signed with a key left lying on disk.
  await Promise.all(['ca.key', 'server.csr'].map((file) => rm(join(dir, file), { force: true })));

  const caPem = await readFile(join(dir, 'ca.pem'), 'utf8');
  return {
    dir,
    ownsDir,
    caPem,
    caDer: Buffer.from(new X509Certificate(caPem).raw),
    caPath: join(dir, 'ca.pem'),
    serverKeyPem: await readFile(join(dir, 'server.key'), 'utf8'),
    serverCertPem: await readFile(join(dir, 'server.pem'), 'utf8'),
  };
}

/**
 * A CA certificate with the given subject (`/CN=…`) and a fresh key: it looks like another CA by
 * name but has its own fingerprint, as an impostor would. Returns its PEM; its key is not kept.
 */
export async function generateLookalikeCa(dir: string, subject: string): Promise<string> {
  await writeFile(join(dir, 'openssl.cnf'), OPENSSL_CONFIG);
  await openssl(
    [
      'req',
      '-x509',
      ...EC_KEY,
      '-keyout',
      'lookalike.key',
      '-out',
      'lookalike.pem',
      '-days',
      DAYS,
      '-subj',
      subject,
      '-config',
      'openssl.cnf',
      '-extensions',
      'v3_ca',
    ],
    dir,
  );
  await rm(join(dir, 'lookalike.key'), { force: true });
  return readFile(join(dir, 'lookalike.pem'), 'utf8');
}
