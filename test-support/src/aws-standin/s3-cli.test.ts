import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAwsStandin, type AwsStandin } from './index.js';

/**
 * The stand-in's S3, as Gantry's artifact store uses a bucket, read and written by Debian's aws CLI (botocore's own
 * models and its s3transfer): multipart uploads past 8 MB, ranged downloads, listings with delimiters, paging and
 * url-encoded keys, DeleteObject and DeleteObjects, CRC32 checksums. A shape the real S3 would not send fails the
 * CLI's parser; a checksum it would refuse fails the upload.
 */
const BUCKET = 'gantry-artifacts';
let s: AwsStandin;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-s3-cli-'));
const file = (name: string, body: string | Buffer) => {
  fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
  fs.writeFileSync(path.join(dir, name), body);
  return path.join(dir, name);
};
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function aws(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/aws',
      ['--endpoint-url', s.url, '--region', 'eu-west-1', ...args],
      {
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
        env: { PATH: process.env.PATH, HOME: '/tmp', AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_PAGER: '' },
      },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}
const ok = async (args: string[]) => {
  const r = await aws(args);
  expect(r.code, `aws ${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.stdout;
};
/** `aws s3 ls` lines without their dates: `PRE name/` or `size key`. */
const listing = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) =>
      l
        .replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+/, '')
        .trim()
        .replace(/\s+/, ' '),
    );
const objects = () => s.bucket(BUCKET).objects;

beforeAll(async () => {
  s = await startAwsStandin();
  s.bucket(BUCKET, 'eu-west-1');
});
afterAll(async () => {
  await s?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("the stand-in's S3 as an artifact bucket, through the aws CLI", { timeout: 240_000 }, () => {
  it('s3 cp up (multipart past 8 MB) and down (ranged), ls with prefixes, paging and odd keys, rm one and --recursive', async () => {
    const big = randomBytes(10 * 1024 * 1024 + 12345);
    await ok(['s3', 'cp', file('big.bin', big), `s3://${BUCKET}/gantry/pipelines/p1/b1/Build/bundle.zip`]);
    const stored = objects().get('gantry/pipelines/p1/b1/Build/bundle.zip')!;
    expect([sha(stored.data), stored.etag]).toEqual([sha(big), expect.stringMatching(/^"[0-9a-f]{32}-2"$/)]);
    expect(s.calls.some((c) => /\?uploads/.test(c.action))).toBe(true);

    file('small/out.json', '{"v":1}');
    file('small/a b+c.json', '{}');
    file('small/deep/x.txt', 'x');
    await ok(['s3', 'cp', '--recursive', path.join(dir, 'small'), `s3://${BUCKET}/gantry/pipelines/p1/b2/Build/`]);
    // with the CRC32 the SDKs send by default: kept, and one that does not match the bytes refused
    const put = ['s3api', 'put-object', '--bucket', BUCKET, '--body', file('other.json', '[]'), '--checksum-algorithm', 'CRC32'];
    expect(JSON.parse(await ok([...put, '--key', 'gantry/pipelines/p10/b1/Build/out.json'])).ChecksumCRC32).toBe('DUy7KQ==');

    expect(objects().get('gantry/pipelines/p10/b1/Build/out.json')!.checksum).toEqual({ algorithm: 'crc32', value: 'DUy7KQ==', type: 'FULL_OBJECT' });
    const wrong = await aws([...put.slice(0, -2), '--key', 'gantry/wrong.json', '--checksum-crc32', 'AAAAAA==']);
    expect(wrong.stderr).toContain(
      'An error occurred (BadDigest) when calling the PutObject operation: The CRC32 you specified did not match the calculated checksum.',
    );
    expect(objects().has('gantry/wrong.json')).toBe(false);

    expect(listing(await ok(['s3', 'ls', `s3://${BUCKET}/gantry/pipelines/`]))).toEqual(['PRE p1/', 'PRE p10/']);
    expect(listing(await ok(['s3', 'ls', `s3://${BUCKET}/gantry/pipelines/p1/b2/Build/`]))).toEqual(['PRE deep/', '2 a b+c.json', '7 out.json']);
    // two keys a page: the CLI follows the continuation tokens
    expect(listing(await ok(['s3', 'ls', '--recursive', '--page-size', '2', `s3://${BUCKET}/gantry/`]))).toEqual([
      `${big.length} gantry/pipelines/p1/b1/Build/bundle.zip`,
      '2 gantry/pipelines/p1/b2/Build/a b+c.json',
      '1 gantry/pipelines/p1/b2/Build/deep/x.txt',
      '7 gantry/pipelines/p1/b2/Build/out.json',
      '2 gantry/pipelines/p10/b1/Build/out.json',
    ]);
    const pages = s.calls.filter((c) => c.action.startsWith('GET') && c.action.includes('list-type=2') && c.action.includes('max-keys=2'));
    expect(pages.length).toBe(3);

    const before = s.calls.length;
    await ok(['s3', 'cp', `s3://${BUCKET}/gantry/pipelines/p1/b1/Build/bundle.zip`, path.join(dir, 'down.bin')]);
    expect(sha(fs.readFileSync(path.join(dir, 'down.bin')))).toBe(sha(big));
    expect(s.calls.slice(before).filter((c) => c.action.startsWith('GET')).length).toBeGreaterThan(1);
    await ok(['s3', 'cp', `s3://${BUCKET}/gantry/pipelines/p1/b2/Build/a b+c.json`, path.join(dir, 'odd.json')]);
    expect(fs.readFileSync(path.join(dir, 'odd.json'), 'utf8')).toBe('{}');

    const missing = await aws(['s3', 'cp', `s3://${BUCKET}/gantry/nope.zip`, path.join(dir, 'nope')]);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      expect.stringContaining('(404) when calling the HeadObject operation: Key "gantry/nope.zip" does not exist'),
    ]);

    await ok(['s3', 'rm', `s3://${BUCKET}/gantry/pipelines/p1/b1/Build/bundle.zip`]);
    expect(objects().has('gantry/pipelines/p1/b1/Build/bundle.zip')).toBe(false);
    await ok(['s3', 'rm', '--recursive', `s3://${BUCKET}/gantry/pipelines/p1/`]);
    expect([...objects().keys()]).toEqual(['gantry/pipelines/p10/b1/Build/out.json']);
  });

  it('s3api: DeleteObjects takes up to 1000 keys, ListObjectsV2 pages by continuation token, an upload part under 5 MiB is refused', async () => {
    for (let i = 0; i < 5; i++) await ok(['s3api', 'put-object', '--bucket', BUCKET, '--key', `many/k${i}`, '--body', file('k', `${i}`)]);
    const page1 = JSON.parse(await ok(['s3api', 'list-objects-v2', '--bucket', BUCKET, '--prefix', 'many/', '--max-keys', '3', '--no-paginate']));
    expect([page1.KeyCount, page1.IsTruncated, page1.Contents.map((c: any) => c.Key)]).toEqual([3, true, ['many/k0', 'many/k1', 'many/k2']]);
    const page2 = JSON.parse(
      await ok([
        's3api',
        'list-objects-v2',
        '--bucket',
        BUCKET,
        '--prefix',
        'many/',
        '--max-keys',
        '3',
        '--no-paginate',
        '--continuation-token',
        page1.NextContinuationToken,
      ]),
    );
    expect([page2.KeyCount, page2.IsTruncated, page2.Contents.map((c: any) => c.Key)]).toEqual([2, false, ['many/k3', 'many/k4']]);

    const tooMany = { Objects: Array.from({ length: 1001 }, (_, i) => ({ Key: `many/k${i}` })) };
    const refused = await aws(['s3api', 'delete-objects', '--bucket', BUCKET, '--delete', `file://${file('too-many.json', JSON.stringify(tooMany))}`]);
    expect(refused.stderr).toContain('MalformedXML');
    const deleted = JSON.parse(
      await ok([
        's3api',
        'delete-objects',
        '--bucket',
        BUCKET,
        '--delete',
        JSON.stringify({ Objects: [{ Key: 'many/k0' }, { Key: 'many/k1' }, { Key: 'many/none' }] }),
      ]),
    );
    expect(deleted.Deleted.map((d: any) => d.Key)).toEqual(['many/k0', 'many/k1', 'many/none']);
    expect([...objects().keys()].filter((k) => k.startsWith('many/'))).toEqual(['many/k2', 'many/k3', 'many/k4']);

    const upload = JSON.parse(await ok(['s3api', 'create-multipart-upload', '--bucket', BUCKET, '--key', 'mp/x']));
    const part = (n: number, body: string) =>
      ok(['s3api', 'upload-part', '--bucket', BUCKET, '--key', 'mp/x', '--upload-id', upload.UploadId, '--part-number', `${n}`, '--body', file(`p${n}`, body)]);
    const parts = [JSON.parse(await part(1, 'small')).ETag, JSON.parse(await part(2, 'last'))];
    const complete = await aws([
      's3api',
      'complete-multipart-upload',
      '--bucket',
      BUCKET,
      '--key',
      'mp/x',
      '--upload-id',
      upload.UploadId,
      '--multipart-upload',
      JSON.stringify({
        Parts: [
          { PartNumber: 1, ETag: parts[0] },
          { PartNumber: 2, ETag: parts[1].ETag },
        ],
      }),
    ]);
    expect(complete.stderr).toContain('EntityTooSmall');
    await ok(['s3api', 'abort-multipart-upload', '--bucket', BUCKET, '--key', 'mp/x', '--upload-id', upload.UploadId]);
    const gone = await aws(['s3api', 'abort-multipart-upload', '--bucket', BUCKET, '--key', 'mp/x', '--upload-id', upload.UploadId]);
    expect(gone.stderr).toContain('NoSuchUpload');
    expect(objects().has('mp/x')).toBe(false);
  });
});
