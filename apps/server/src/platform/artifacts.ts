import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/**
 * Where build artifacts (and packaged components) live: a folder by default, or an S3-compatible bucket
 * (ARTIFACT_STORE=s3://bucket[/prefix]) that every api and worker process shares. Keys are relative paths.
 */
export interface ArtifactStore {
  /** Stores the body under the key (replacing what was there); answers its size in bytes. */
  put(key: string, body: Readable | Buffer | string): Promise<{ size: number }>;
  /** The stored bytes, or null when there is nothing under the key. */
  get(key: string): Promise<Readable | null>;
  /** Removes the key and everything under it (`a/b` takes `a/b/…`, never `a/bc`). */
  removePrefix(prefix: string): Promise<void>;
}

/** What ARTIFACT_STORE names: a folder, or a bucket and a key prefix (no leading or trailing slash; '' for the bucket's root). */
export type ArtifactLocation = { kind: 'folder'; path: string } | { kind: 's3'; bucket: string; prefix: string };

/** Bucket names as S3 accepts them (legacy us-east-1 names may have capitals and underscores). */
const BUCKET = /^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/;

/** ARTIFACT_STORE read, or an error saying what is wrong with it (config.ts checks it at start). */
export function artifactLocation(setting: string | undefined, dataDir: string): ArtifactLocation {
  if (!setting) return { kind: 'folder', path: path.join(dataDir, 'artifacts') };
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(setting)?.[1];
  if (!scheme) return { kind: 'folder', path: path.resolve(setting) };
  if (scheme.toLowerCase() !== 's3') throw new Error(`${scheme}:// is not supported: use a folder path or s3://bucket[/prefix]`);
  const m = /^s3:\/\/([^/]*)(\/.*)?$/i.exec(setting)!;
  const [, bucket = '', rest = ''] = m;
  if (/[?#]/.test(rest) || bucket.includes('@') || bucket.includes(':'))
    throw new Error('s3://bucket[/prefix] takes no credentials, port or query: give credentials the standard AWS way, the endpoint in AWS_ENDPOINT_URL_S3');
  if (!bucket) throw new Error('s3:// needs a bucket: s3://bucket[/prefix]');
  if (!BUCKET.test(bucket)) throw new Error(`"${bucket}" is not a bucket name (3-255 letters, digits, dots, hyphens or underscores)`);
  const segments = rest.split('/').filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..')) throw new Error(`the prefix ${rest} may not have . or .. segments`);
  return { kind: 's3', bucket, prefix: segments.join('/') };
}

/**
 * A key as both stores keep it: relative, normalised (`a//b/./c` is `a/b/c`), never leaving the store
 * (no `..` out of it, not absolute, not the store itself).
 */
export function artifactKey(key: string): string {
  const normal = path.posix.normalize(key).replace(/\/+$/, '');
  if (!key || path.posix.isAbsolute(normal) || normal === '.' || normal === '..' || normal.startsWith('../') || key.includes('\0'))
    throw new Error(`artifact key escapes the store: ${key}`);
  return normal;
}

export function createFileArtifactStore(root: string): ArtifactStore {
  const resolve = (key: string) => path.join(path.resolve(root), artifactKey(key));
  return {
    async put(key, body) {
      const file = resolve(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      if (typeof body === 'string' || Buffer.isBuffer(body)) await fs.promises.writeFile(file, body);
      else await pipeline(body, fs.createWriteStream(file));
      return { size: (await fs.promises.stat(file)).size };
    },
    async get(key) {
      const file = resolve(key);
      return fs.existsSync(file) ? fs.createReadStream(file) : null;
    },
    async removePrefix(prefix) {
      await fs.promises.rm(resolve(prefix), { recursive: true, force: true });
    },
  };
}

/**
 * The store ARTIFACT_STORE names. A bucket is checked before the server starts (it exists, the credentials may
 * read it): a process that could not keep or serve artifacts says so at start, not at the first build.
 * The S3 client loads only then (DESIGN: the cloud SDKs cost start-up time).
 */
export async function openArtifactStore(setting: string | undefined, dataDir: string): Promise<ArtifactStore> {
  const location = artifactLocation(setting, dataDir);
  if (location.kind === 'folder') return createFileArtifactStore(location.path);
  const { createS3ArtifactStore } = await import('./artifacts-s3.js');
  const store = await createS3ArtifactStore(location);
  await store.check();
  return store;
}
