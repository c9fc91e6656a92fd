import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface StandinTls {
  /** PEM of the private CA that signed the serving certificate (what a cluster's certificate-authority-data holds). */
  caPem: string;
  certPem: string;
  keyPem: string;
}

/**
 * A fresh private CA and a serving certificate for 127.0.0.1/localhost signed by it, made with the openssl CLI
 * (node:crypto cannot issue X.509 certificates). Real clusters use a private CA, so clients must be given caPem.
 */
export function makeTls(): StandinTls {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kube-standin-tls-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    run(
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=kube-standin-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    );
    run('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=kube-apiserver');
    fs.writeFileSync(
      path.join(dir, 'ext.cnf'),
      'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default.svc\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n',
    );
    run('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'ext.cnf');
    const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
    return { caPem: read('ca.crt'), certPem: read('server.crt'), keyPem: read('server.key') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
