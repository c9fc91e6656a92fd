import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import bcrypt from 'bcryptjs';
import { freePort, waitForPort } from '../ports.js';

/**
 * Debian's real Distribution registry (`/usr/bin/docker-registry`, DESIGN §7) on 127.0.0.1, plain HTTP, with
 * filesystem storage in a temp dir and one of three auth modes:
 *   'htpasswd'  Basic auth against a bcrypt htpasswd file;
 *   'token'     Bearer token auth: the registry challenges with `Bearer realm=…,service=…,scope=…` and trusts
 *               JWTs (RS256, x5c header) from a small token server here, which checks Basic credentials;
 *   'none'      no auth.
 * `pushImage` puts a tiny image (one layer, a config with labels and `created`) into it over the v2 API.
 */
export type RegistryAuth = 'htpasswd' | 'token' | 'none';

export interface StartRegistryOptions {
  auth?: RegistryAuth;
  /** Accepted user → password (default { gantry: 'registry-secret' }). */
  users?: Record<string, string>;
  binary?: string;
}

export interface PushImageOptions {
  labels?: Record<string, string>;
  /** The config's `created` (ISO); default now. */
  created?: string;
  /** 'docker' (v2 schema2, default), 'oci' (OCI manifest) or 'index' (an OCI index over a linux/amd64 OCI manifest). */
  format?: 'docker' | 'oci' | 'index';
}

export interface LocalRegistry {
  /** http://127.0.0.1:<port> */
  url: string;
  /** 127.0.0.1:<port> */
  host: string;
  auth: RegistryAuth;
  username: string;
  password: string;
  /** The token server's realm (token auth only). */
  realm?: string;
  /** service name the token server and registry agree on (token auth only). */
  service?: string;
  /** Token requests the token server answered (scope strings; token auth only). */
  tokenRequests: { user: string | null; scopes: string[]; status: number }[];
  /** Pushes a tiny image to repository:tag; answers the manifest digest (of the index for format 'index'). */
  pushImage(repository: string, tag: string, o?: PushImageOptions): Promise<string>;
  stop(): Promise<void>;
}

const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
const DOCKER_CONFIG = 'application/vnd.docker.container.image.v1+json';
const DOCKER_LAYER = 'application/vnd.docker.image.rootfs.diff.tar.gzip';
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
const OCI_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';

const sha256 = (b: Buffer | string) => `sha256:${crypto.createHash('sha256').update(b).digest('hex')}`;
const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

export async function startRegistry(o: StartRegistryOptions = {}): Promise<LocalRegistry> {
  const auth = o.auth ?? 'htpasswd';
  const users = o.users ?? { gantry: 'registry-secret' };
  const [username, password] = Object.entries(users)[0]!;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  const tokenRequests: LocalRegistry['tokenRequests'] = [];
  let tokenServer: http.Server | undefined;
  let realm: string | undefined;
  const service = 'gantry-test-registry';
  const issuer = 'gantry-test-issuer';

  let authYaml = '';
  if (auth === 'htpasswd') {
    const file = path.join(dir, 'htpasswd');
    fs.writeFileSync(
      file,
      Object.entries(users)
        .map(([u, p]) => `${u}:${bcrypt.hashSync(p, 4)}`)
        .join('\n') + '\n',
    );
    authYaml = `auth:\n  htpasswd:\n    realm: gantry-test\n    path: ${file}\n`;
  } else if (auth === 'token') {
    const keyFile = path.join(dir, 'token.key');
    const certFile = path.join(dir, 'token.crt');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=gantry-test-token-issuer'],
      { stdio: 'ignore' },
    );
    const key = crypto.createPrivateKey(fs.readFileSync(keyFile));
    const certDer = new crypto.X509Certificate(fs.readFileSync(certFile)).raw;
    tokenServer = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const scopes = url.searchParams
        .getAll('scope')
        .flatMap((s) => s.split(' '))
        .filter(Boolean);
      const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
      const [user, pass] = basic ? Buffer.from(basic[1]!, 'base64').toString().split(/:(.*)/s) : [];
      const ok = user !== undefined && users[user] !== undefined && users[user] === pass;
      tokenRequests.push({ user: user ?? null, scopes, status: ok ? 200 : 401 });
      if (!ok) {
        res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="gantry-test-token"' });
        res.end(JSON.stringify({ details: 'incorrect username or password' }));
        return;
      }
      const access = scopes.map((s) => {
        const [type, ...rest] = s.split(':');
        const actions = rest.pop()!.split(',');
        return { type, name: rest.join(':'), actions };
      });
      const now = Math.floor(Date.now() / 1000);
      const header = { alg: 'RS256', typ: 'JWT', x5c: [certDer.toString('base64')] };
      const claims = { iss: issuer, sub: user, aud: service, exp: now + 300, nbf: now - 10, iat: now, jti: crypto.randomUUID(), access };
      const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(claims))}`;
      const token = `${input}.${b64url(crypto.sign('sha256', Buffer.from(input), key))}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ token, access_token: token, expires_in: 300, issued_at: new Date().toISOString() }));
    });
    await new Promise<void>((resolve) => tokenServer!.listen(0, '127.0.0.1', resolve));
    realm = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
    authYaml = `auth:\n  token:\n    realm: ${realm}\n    service: ${service}\n    issuer: ${issuer}\n    rootcertbundle: ${certFile}\n`;
  }
  const config = path.join(dir, 'config.yml');
  fs.mkdirSync(path.join(dir, 'storage'));
  fs.writeFileSync(
    config,
    [
      'version: 0.1',
      'log:\n  level: error\n  accesslog:\n    disabled: true',
      `storage:\n  filesystem:\n    rootdirectory: ${path.join(dir, 'storage')}\n  delete:\n    enabled: true`,
      `http:\n  addr: ${host}\n  secret: ${crypto.randomBytes(16).toString('hex')}`,
      authYaml,
    ].join('\n'),
  );

  let stderr = '';
  const child: ChildProcess = spawn(o.binary ?? '/usr/bin/docker-registry', ['serve', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(port),
      exited.then(() => {
        throw new Error(`docker-registry exited: ${stderr}`);
      }),
    ]);
  } catch (err) {
    child.kill('SIGKILL');
    tokenServer?.close();
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const url = `http://${host}`;
  const client = pushClient(url, auth === 'none' ? null : { username, password });

  return {
    url,
    host,
    auth,
    username,
    password,
    realm,
    service: auth === 'token' ? service : undefined,
    tokenRequests,
    async pushImage(repository, tag, p = {}) {
      const oci = (p.format ?? 'docker') !== 'docker';
      const layer = zlib.gzipSync(Buffer.alloc(1024)); // an empty tar archive
      const layerDiff = sha256(Buffer.alloc(1024));
      const cfg = Buffer.from(
        JSON.stringify({
          architecture: 'amd64',
          os: 'linux',
          created: p.created ?? new Date().toISOString(),
          config: { Labels: p.labels ?? {}, Cmd: ['/bin/sh'] },
          rootfs: { type: 'layers', diff_ids: [layerDiff] },
          history: [{ created: p.created ?? new Date().toISOString(), created_by: 'gantry test-support' }],
        }),
      );
      await client.blob(repository, layer);
      await client.blob(repository, cfg);
      const manifest = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: oci ? OCI_MANIFEST : DOCKER_MANIFEST,
          config: { mediaType: oci ? OCI_CONFIG : DOCKER_CONFIG, size: cfg.length, digest: sha256(cfg) },
          layers: [{ mediaType: oci ? OCI_LAYER : DOCKER_LAYER, size: layer.length, digest: sha256(layer) }],
        }),
      );
      if (p.format !== 'index') return client.manifest(repository, tag, manifest, oci ? OCI_MANIFEST : DOCKER_MANIFEST);
      const inner = await client.manifest(repository, sha256(manifest), manifest, OCI_MANIFEST);
      const index = Buffer.from(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: OCI_INDEX,
          manifests: [{ mediaType: OCI_MANIFEST, size: manifest.length, digest: inner, platform: { architecture: 'amd64', os: 'linux' } }],
        }),
      );
      return client.manifest(repository, tag, index, OCI_INDEX);
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
      if (tokenServer) await new Promise<void>((resolve) => tokenServer!.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The few v2 calls a push needs, with Basic or Bearer auth as the registry's challenge asks. */
function pushClient(base: string, creds: { username: string; password: string } | null) {
  const basic = creds ? `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}` : undefined;
  const tokens = new Map<string, string>();

  async function call(repository: string, url: string, init: RequestInit): Promise<Response> {
    const scope = `repository:${repository}:pull,push`;
    const withAuth = (a?: string) =>
      fetch(url.startsWith('http') ? url : `${base}${url}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), ...(a ? { authorization: a } : {}) },
      });
    let res = await withAuth(tokens.has(scope) ? `Bearer ${tokens.get(scope)}` : basic);
    if (res.status !== 401) return res;
    const challenge = res.headers.get('www-authenticate') ?? '';
    if (!/^Bearer /i.test(challenge)) return res;
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    const tokenUrl = new URL(params.realm!);
    if (params.service) tokenUrl.searchParams.set('service', params.service);
    tokenUrl.searchParams.set('scope', scope);
    const t = await fetch(tokenUrl, { headers: basic ? { authorization: basic } : {} });
    if (!t.ok) throw new Error(`token server answered ${t.status}`);
    const body = (await t.json()) as { token?: string; access_token?: string };
    tokens.set(scope, body.token ?? body.access_token!);
    res = await withAuth(`Bearer ${tokens.get(scope)}`);
    return res;
  }

  const ensure = async (res: Response, what: string) => {
    if (!res.ok) throw new Error(`${what}: ${res.status} ${await res.text()}`);
    return res;
  };

  return {
    async blob(repository: string, data: Buffer) {
      const digest = sha256(data);
      const start = await ensure(await call(repository, `/v2/${repository}/blobs/uploads/`, { method: 'POST' }), 'start upload');
      const location = new URL(start.headers.get('location')!, base);
      location.searchParams.set('digest', digest);
      await ensure(
        await call(repository, location.toString(), { method: 'PUT', body: new Uint8Array(data), headers: { 'content-type': 'application/octet-stream' } }),
        'upload blob',
      );
      return digest;
    },
    async manifest(repository: string, reference: string, body: Buffer, mediaType: string) {
      const res = await ensure(
        await call(repository, `/v2/${repository}/manifests/${reference}`, {
          method: 'PUT',
          body: new Uint8Array(body),
          headers: { 'content-type': mediaType },
        }),
        'put manifest',
      );
      return res.headers.get('docker-content-digest') ?? sha256(body);
    },
  };
}
