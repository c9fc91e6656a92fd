import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAwsStandin, type AwsStandin } from '@gantry/test-support';
import { testTempDir } from '@gantry/test-support/temp-dir';
import { artifactLocation, createFileArtifactStore, openArtifactStore, type ArtifactStore } from './artifacts.js';
import { createS3ArtifactStore } from './artifacts-s3.js';
import { loadConfig } from '../config.js';

/**
 * The S3 artifact store against the AWS stand-in's S3 (REST XML, as AWS answers), reached the standard way
 * (AWS_ENDPOINT_URL_S3, AWS_REGION, the credential variables); what both stores promise runs on the folder store too.
 */
let aws: AwsStandin;
const BUCKET = 'gantry-artifacts';
const tmp = () => testTempDir('gantry-artifacts-');

const text = async (s: Readable | null) => {
  if (!s) return null;
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};
/** A call to the stand-in as its path and the names of its query parameters (the SDK's x-id left out). */
const call = (action: string) => {
  const u = new URL(action.replace(/^\S+ /, ''), 'http://s3');
  const names = [...u.searchParams.keys()].filter((k) => k !== 'x-id');
  return `${action.split(' ')[0]} ${u.pathname} ?${names.sort().join('&')}`;
};
const bucket = () => aws.bucket(BUCKET);
const stored = () => [...bucket().objects.keys()].sort();
/** A body of `size` random bytes, given in 64 KiB chunks as a zip stream gives them; its sha256. */
function randomBody(size: number, failAt?: number) {
  const hash = createHash('sha256');
  let sent = 0;
  const stream = new Readable({
    read() {
      if (failAt !== undefined && sent >= failAt) return this.destroy(new Error('the zip failed'));
      if (sent >= size) return this.push(null);
      const chunk = randomBytes(Math.min(64 * 1024, size - sent));
      hash.update(chunk);
      sent += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest('hex') };
}

beforeAll(async () => {
  aws = await startAwsStandin();
  aws.bucket(BUCKET, 'eu-west-1');
  Object.assign(process.env, aws.s3Env('eu-west-1'));
});
afterAll(async () => {
  await aws?.close();
});

describe.each([
  ['folder', () => createFileArtifactStore(tmp())],
  ['S3', () => openArtifactStore(`s3://${BUCKET}/shared/${randomBytes(4).toString('hex')}`, tmp())],
])('what every artifact store does (%s)', (_kind, make: () => ArtifactStore | Promise<ArtifactStore>) => {
  it('keeps a text, bytes and a stream under their keys, answers their sizes, and null for a key never written', async () => {
    const store = await make();
    expect(await store.put('p1/b1/Build/out.json', '{"v":"é"}')).toEqual({ size: 10 });
    const bytes = randomBytes(3000);
    expect(await store.put('p1/b1/Build/raw.bin', bytes)).toEqual({ size: 3000 });
    expect(await store.put('p1/b1/Build/bundle.zip', Readable.from([Buffer.from('PK'), Buffer.from('zip')]))).toEqual({ size: 5 });
    expect(await store.put('p1/b1/Build/empty.zip', Readable.from([]))).toEqual({ size: 0 });
    expect((await text(await store.get('p1/b1/Build/out.json')))!.toString('utf8')).toBe('{"v":"é"}');
    expect((await text(await store.get('p1/b1/Build/raw.bin')))!.equals(bytes)).toBe(true);
    expect((await text(await store.get('p1/b1/Build/bundle.zip')))!.toString()).toBe('PKzip');
    expect((await text(await store.get('p1/b1/Build/empty.zip')))!.length).toBe(0);
    expect(await store.get('p1/b1/Build/never.zip')).toBeNull();
    expect(await store.put('p1/b1/Build/out.json', '{}')).toEqual({ size: 2 });
    expect((await text(await store.get('p1/b1/Build/out.json')))!.toString()).toBe('{}');
  });

  it('refuses a key that would leave the store', async () => {
    const store = await make();
    for (const key of ['../outside', 'a/../../outside', '/etc/passwd', '', '.', 'a/..'])
      for (const op of [() => store.put(key, 'x'), () => store.get(key), () => store.removePrefix(key)])
        await expect(op(), key).rejects.toThrow(`artifact key escapes the store: ${key}`);
  });

  it('removes a prefix: the key itself and everything under it, not a key that only begins the same', async () => {
    const store = await make();
    for (const key of ['p2/a/b1/x.zip', 'p2/a/b2/Build/y.json', 'p2/ab/b1/x.zip', 'p2/a.json', 'p2/b/a/x.zip']) await store.put(key, key);
    await store.removePrefix('p2/a');
    for (const key of ['p2/a/b1/x.zip', 'p2/a/b2/Build/y.json']) expect(await store.get(key)).toBeNull();
    for (const key of ['p2/ab/b1/x.zip', 'p2/a.json', 'p2/b/a/x.zip']) expect((await text(await store.get(key)))!.toString()).toBe(key);
    await store.removePrefix('p2/never-written');
  });
});

describe('the S3 artifact store', () => {
  it('keeps objects under the prefix of ARTIFACT_STORE, typed', async () => {
    const store = await openArtifactStore(`s3://${BUCKET}/gantry/prod/`, tmp());
    await store.put('pipelines/p/b/Build/bundle.zip', 'zip');
    await store.put('pipelines/p/b/Build/out.json', '{}');
    const at = (k: string) => bucket().objects.get(k)!;
    expect([at('gantry/prod/pipelines/p/b/Build/bundle.zip').contentType, at('gantry/prod/pipelines/p/b/Build/out.json').contentType]).toEqual([
      'application/zip',
      'application/json',
    ]);
    const root = await openArtifactStore(`s3://${BUCKET}`, tmp());
    await root.put('at-root/x.json', '{}');
    expect(stored()).toContain('at-root/x.json');
  });

  it('streams a 10 MB body up in parts and down again, bytes and size unchanged', async () => {
    const store = await openArtifactStore(`s3://${BUCKET}/big`, tmp());
    const before = aws.calls.length;
    const body = randomBody(10 * 1024 * 1024);
    expect(await store.put('p/b/Build/big.zip', body.stream)).toEqual({ size: 10 * 1024 * 1024 });
    expect(aws.calls.slice(before).map((c) => call(c.action))).toEqual([
      'POST /gantry-artifacts/big/p/b/Build/big.zip ?uploads',
      'PUT /gantry-artifacts/big/p/b/Build/big.zip ?partNumber&uploadId',
      'PUT /gantry-artifacts/big/p/b/Build/big.zip ?partNumber&uploadId',
      'POST /gantry-artifacts/big/p/b/Build/big.zip ?uploadId',
    ]);
    // each part came with its CRC32 (checked by the stand-in as S3 checks it), and the completion listed them
    expect(bucket().objects.get('big/p/b/Build/big.zip')).toMatchObject({
      etag: expect.stringMatching(/^"[0-9a-f]{32}-2"$/),
      checksum: { algorithm: 'crc32', type: 'COMPOSITE', value: expect.stringMatching(/-2$/) },
    });
    const down = createHash('sha256');
    let size = 0;
    for await (const c of (await store.get('p/b/Build/big.zip'))!) {
      down.update(c as Buffer);
      size += (c as Buffer).length;
    }
    expect([size, down.digest('hex')]).toEqual([10 * 1024 * 1024, body.digest()]);
  });

  it('a body that fails half-way stores nothing and leaves no upload behind', async () => {
    const store = await openArtifactStore(`s3://${BUCKET}/failing`, tmp());
    await expect(store.put('p/b/Build/broken.zip', randomBody(12 * 1024 * 1024, 7 * 1024 * 1024).stream)).rejects.toThrow('the zip failed');
    expect(stored().filter((k) => k.startsWith('failing/'))).toEqual([]);
    expect([...(bucket().uploads?.values() ?? [])].filter((u) => u.key.startsWith('failing/'))).toEqual([]);
  });

  it('removes a prefix of more than 1000 objects page by page', async () => {
    const store = await openArtifactStore(`s3://${BUCKET}/many`, tmp());
    const b = bucket();
    // written straight into the stand-in: 2,500 uploads would only slow the test
    const { standinObject } = await import('@gantry/test-support');
    for (let i = 0; i < 2500; i++)
      b.objects.set(
        `many/pipelines/p1/b${i}/Build/out.json`,
        standinObject(Buffer.from('{}'), { etag: '"x"', contentType: 'application/json', lastModified: 0 }),
      );
    await store.put('pipelines/p10/b/Build/out.json', '{}');
    const before = aws.calls.length;
    await store.removePrefix('pipelines/p1');
    expect(aws.calls.slice(before).map((c) => call(c.action))).toEqual([
      'GET /gantry-artifacts/ ?list-type&prefix',
      'POST /gantry-artifacts/ ?delete',
      'GET /gantry-artifacts/ ?continuation-token&list-type&prefix',
      'POST /gantry-artifacts/ ?delete',
      'GET /gantry-artifacts/ ?continuation-token&list-type&prefix',
      'POST /gantry-artifacts/ ?delete',
      'DELETE /gantry-artifacts/many/pipelines/p1 ?',
    ]);
    expect(stored().filter((k) => k.startsWith('many/'))).toEqual(['many/pipelines/p10/b/Build/out.json']);
  });

  it('does not start on a bucket that is not there, or an S3 nobody answers at, saying which', async () => {
    await expect(openArtifactStore('s3://no-such-bucket/x', tmp())).rejects.toThrow(
      `ARTIFACT_STORE=s3://no-such-bucket/x: the bucket no-such-bucket does not exist at ${aws.url}`,
    );
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const saved = process.env.AWS_ENDPOINT_URL_S3;
    process.env.AWS_ENDPOINT_URL_S3 = `http://127.0.0.1:${port}`;
    try {
      await expect(openArtifactStore(`s3://${BUCKET}`, tmp())).rejects.toThrow(
        `ARTIFACT_STORE=s3://${BUCKET}: cannot reach S3 at http://127.0.0.1:${port} (ECONNREFUSED)`,
      );
    } finally {
      process.env.AWS_ENDPOINT_URL_S3 = saved;
    }
  });

  it('a client of its own is used as given', async () => {
    const { S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({ endpoint: aws.url, forcePathStyle: true, region: 'eu-west-1' });
    const store = await createS3ArtifactStore({ bucket: BUCKET, prefix: 'own', client });
    await store.check();
    await store.put('x.json', '{}');
    expect(stored()).toContain('own/x.json');
  });
});

describe('ARTIFACT_STORE', () => {
  it('is a folder (the data dir’s by default) or s3://bucket[/prefix]; anything else is refused saying why', () => {
    expect(artifactLocation(undefined, '/data')).toEqual({ kind: 'folder', path: '/data/artifacts' });
    expect(artifactLocation('/srv/artifacts', '/data')).toEqual({ kind: 'folder', path: '/srv/artifacts' });
    expect(artifactLocation('s3://my-bucket', '/data')).toEqual({ kind: 's3', bucket: 'my-bucket', prefix: '' });
    expect(artifactLocation('s3://my.bucket/gantry//prod/', '/data')).toEqual({ kind: 's3', bucket: 'my.bucket', prefix: 'gantry/prod' });
    const refused = (s: string) => {
      try {
        artifactLocation(s, '/data');
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(refused('s3://')).toBe('s3:// needs a bucket: s3://bucket[/prefix]');
    expect(refused('s3:///prefix')).toBe('s3:// needs a bucket: s3://bucket[/prefix]');
    expect(refused('s3://a/x')).toBe('"a" is not a bucket name (3-255 letters, digits, dots, hyphens or underscores)');
    expect(refused('s3://key:secret@bucket/x')).toMatch(/^s3:\/\/bucket\[\/prefix\] takes no credentials/);
    expect(refused('s3://bucket/x/../y')).toBe('the prefix /x/../y may not have . or .. segments');
    expect(refused('gs://bucket/x')).toBe('gs:// is not supported: use a folder path or s3://bucket[/prefix]');
  });
});

describe('ARTIFACT_STORE at start', () => {
  it('a malformed setting is a configuration error', () => {
    expect(() => loadConfig({ ARTIFACT_STORE: 's3://' })).toThrow('Invalid configuration:\n  ARTIFACT_STORE: s3:// needs a bucket: s3://bucket[/prefix]');
  });

  it('`gantry worker` on a bucket that is not there exits 1 saying so', async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const child = spawn(process.execPath, [path.resolve(here, '../../../../node_modules/tsx/dist/cli.mjs'), path.resolve(here, '../main.ts'), 'worker'], {
      env: { ...process.env, GANTRY_DATA_DIR: tmp(), ARTIFACT_STORE: 's3://gantry-missing/builds', GANTRY_LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    // the last line: the SDK may warn about the Node version before
    expect([code, stderr.trim().split('\n').pop()]).toEqual([
      1,
      `ARTIFACT_STORE=s3://gantry-missing/builds: the bucket gantry-missing does not exist at ${aws.url}`,
    ]);
  }, 60_000);
});
