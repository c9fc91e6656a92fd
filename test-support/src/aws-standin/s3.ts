import { createHash } from 'node:crypto';
import { esc, requestId, xml, type Answer, type XmlValue } from './protocol.js';
import type { StandinBucket, StandinWorld } from './state.js';

/**
 * S3's REST XML protocol, path style (`/bucket/key`), for the calls Gantry makes for nested
 * CloudFormation templates: HeadBucket, CreateBucket, PutBucketLifecycleConfiguration, PutObject,
 * and, to look at what was written, GetObject, HeadObject, ListObjectsV2, GetBucketLifecycleConfiguration.
 */
export const S3_NS = 'http://s3.amazonaws.com/doc/2006-03-01/';

export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly resource: Record<string, string> = {},
  ) {
    super(message);
  }
}

export interface S3Request {
  method: string;
  /** The path, not decoded. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const header = (r: S3Request, name: string) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const ok = (body = '', headers: Record<string, string> = {}, contentType = 'application/xml'): Answer => ({ status: 200, contentType, body, headers });
const xmlDoc = (root: string, inner: Record<string, XmlValue>) => `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${S3_NS}">${xml(inner)}</${root}>`;

/** A body sent `aws-chunked` (streamed uploads with a trailing checksum): its chunks joined. */
function decodeChunked(b: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(b.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!size) break;
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export const findBucket = (w: StandinWorld, name: string): StandinBucket => {
  const b = w.buckets.find((x) => x.name === name);
  if (!b) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', { BucketName: name });
  return b;
};

/** The object a URL names: path style (`http://endpoint/bucket/key`) or AWS's virtual-hosted form (`https://bucket.s3.region.amazonaws.com/key`). */
export function objectAt(w: StandinWorld, url: string) {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const hosted = /^(.+)\.s3[.-](?:[a-z0-9-]+\.)?amazonaws\.com(?:\.cn)?$/.exec(u.hostname);
  const parts = u.pathname.split('/').slice(1).map(decodeURIComponent);
  const [bucket, key] = hosted ? [hosted[1]!, parts.join('/')] : [parts[0] ?? '', parts.slice(1).join('/')];
  return w.buckets.find((b) => b.name === bucket)?.objects.get(key) ?? null;
}

export function s3(w: StandinWorld, region: string, r: S3Request, now: number): Answer {
  const [bucketName = '', ...rest] = r.path.split('?')[0]!.split('/').slice(1).map(decodeURIComponent);
  const key = rest.join('/');
  if (!bucketName) throw new S3Error(400, 'InvalidRequest', 'The stand-in serves buckets by path only');

  if (!key) {
    if (r.method === 'HEAD') return ok('', { 'x-amz-bucket-region': findBucket(w, bucketName).region });
    if (r.method === 'PUT' && r.query.has('lifecycle')) {
      findBucket(w, bucketName).lifecycle = r.body.toString('utf8');
      return ok();
    }
    if (r.method === 'GET' && r.query.has('lifecycle')) {
      const b = findBucket(w, bucketName);
      if (!b.lifecycle) throw new S3Error(404, 'NoSuchLifecycleConfiguration', 'The lifecycle configuration does not exist', { BucketName: bucketName });
      return ok(b.lifecycle.replace(/^(<\?xml[^>]*\?>)?\s*/, '<?xml version="1.0" encoding="UTF-8"?>\n'));
    }
    if (r.method === 'PUT') {
      const wanted = /<LocationConstraint>([^<]*)<\/LocationConstraint>/.exec(r.body.toString('utf8'))?.[1] || 'us-east-1';
      if (wanted !== region)
        throw new S3Error(
          400,
          'IllegalLocationConstraintException',
          `The ${wanted} location constraint is incompatible for the region specific endpoint this request was sent to.`,
        );
      const existing = w.buckets.find((b) => b.name === bucketName);
      // us-east-1 answers 200 again to the owner (its old behaviour); every other region 409
      if (existing && region !== 'us-east-1')
        throw new S3Error(409, 'BucketAlreadyOwnedByYou', 'Your previous request to create the named bucket succeeded and you already own it.', {
          BucketName: bucketName,
        });
      if (!existing) w.buckets.push({ name: bucketName, region, objects: new Map(), lifecycle: null });
      return ok('', { location: `/${bucketName}` });
    }
    if (r.method === 'GET' && r.query.get('list-type') === '2') {
      const b = findBucket(w, bucketName);
      const prefix = r.query.get('prefix') ?? '';
      const keys = [...b.objects.entries()].filter(([k]) => k.startsWith(prefix)).sort(([a], [c]) => a.localeCompare(c));
      return ok(
        xmlDoc('ListBucketResult', {
          Name: bucketName,
          Prefix: prefix,
          KeyCount: keys.length,
          MaxKeys: 1000,
          IsTruncated: false,
          Contents: keys.map(([k, o]) => ({
            Key: k,
            LastModified: new Date(o.lastModified).toISOString(),
            ETag: o.etag,
            Size: Buffer.byteLength(o.body),
            StorageClass: 'STANDARD',
          })),
        }),
      );
    }
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  const b = findBucket(w, bucketName);
  if (r.method === 'PUT') {
    const chunked = (header(r, 'content-encoding') ?? '').includes('aws-chunked') || /^STREAMING-/.test(header(r, 'x-amz-content-sha256') ?? '');
    const body = (chunked ? decodeChunked(r.body) : r.body).toString('utf8');
    const etag = `"${createHash('md5').update(body).digest('hex')}"`;
    b.objects.set(key, { body, etag, contentType: header(r, 'content-type') ?? 'binary/octet-stream', lastModified: now });
    return ok('', { etag });
  }
  if (r.method === 'GET' || r.method === 'HEAD') {
    const o = b.objects.get(key);
    if (!o) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
    return {
      status: 200,
      contentType: o.contentType,
      body: r.method === 'HEAD' ? '' : o.body,
      headers: { etag: o.etag, 'last-modified': new Date(o.lastModified).toUTCString(), 'content-length': String(Buffer.byteLength(o.body)) },
    };
  }
  throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
}

export const s3Error = (e: S3Error, method: string): Answer => ({
  status: e.status,
  contentType: 'application/xml',
  // a HEAD answer has no body: the status code is all a client gets
  body:
    method === 'HEAD'
      ? ''
      : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${esc(e.code)}</Code><Message>${esc(e.message)}</Message>${xml(e.resource)}<RequestId>${requestId().slice(0, 16).toUpperCase()}</RequestId><HostId>${Buffer.from(requestId()).toString('base64')}</HostId></Error>`,
});
