import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/**
 * The local TLS certificate (self-signed, made at start) of the gateway's TLS port: AWS's clients of the broadcast
 * (Amplify's Events client) only speak `wss://`, so `npm start` serves TLS too. Kept in a folder (`npm start`:
 * .agora/tls, out of git) so that a client told to trust it once (NODE_EXTRA_CA_CERTS=.agora/tls/cert.pem) goes on
 * trusting it across restarts; without a folder (the tests) one is made per process, in memory. Never in AWS.
 */
export interface LocalCertificate {
  key: string;
  cert: string;
  /** Where the certificate is, when kept in a folder. */
  file?: string;
}

/** The names a local client reaches the gateway by: the certificate holds them all. */
const NAMES = ['localhost'];
const ADDRESSES = ['127.0.0.1', '::1'];
const DAYS = 365;
/** A kept certificate this close to its end is made anew, so that no client meets an expired one mid-session. */
const RENEW_MS = 7 * 86_400_000;

let inMemory: Promise<LocalCertificate> | undefined;

const make = async (): Promise<LocalCertificate> => {
  // EC P-256: made in milliseconds (an RSA key would take a second of a shared CPU at each test file's gateway).
  const pems = await generate([{ name: 'commonName', value: 'Agora local' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + DAYS * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...NAMES.map((value) => ({ type: 2 as const, value })),
          ...ADDRESSES.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
};

/** Still good: not near its end, and naming every local name (a certificate of an older start may not). */
const usable = (cert: string) => {
  try {
    const x509 = new X509Certificate(cert);
    const names = x509.subjectAltName ?? '';
    return (
      Date.parse(x509.validTo) - Date.now() > RENEW_MS &&
      NAMES.every((n) => names.includes(`DNS:${n}`)) &&
      names.includes('IP Address:127.0.0.1')
    );
  } catch {
    return false;
  }
};

/** The certificate kept in `dir` (made there when missing, unusable or near its end), or one of this process. */
export async function localCertificate(dir?: string): Promise<LocalCertificate> {
  if (!dir) {
    inMemory ??= make();
    return inMemory;
  }
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  if (existsSync(keyFile) && existsSync(certFile)) {
    const kept = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), file: certFile };
    if (usable(kept.cert)) return kept;
  }
  const made = await make();
  mkdirSync(dir, { recursive: true });
  writeFileSync(keyFile, made.key, { mode: 0o600 });
  writeFileSync(certFile, made.cert);
  return { ...made, file: certFile };
}
