import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { esc, requestId, xml, type Answer, type XmlValue } from './protocol.js';
import { standinObject, type StandinBucket, type StandinObject, type StandinUpload, type StandinWorld } from './state.js';

/**
 * S3's REST XML protocol, path style (`/bucket/key`): the calls Gantry makes for nested CloudFormation
 * templates (HeadBucket, CreateBucket, PutBucketLifecycleConfiguration, PutObject) and for its artifact store
 * (PutObject, multipart uploads as @aws-sdk/lib-storage makes them, GetObject, ListObjectsV2 with continuation,
 * DeleteObjects), and what the aws CLI's `s3 cp/ls/rm` send (ranged GETs, delimiters, url encoding, DeleteObject).
 * Bodies are bytes; the checksums a client sends (Content-MD5, x-amz-checksum-crc32/sha1/sha256, in a header or
 * an aws-chunked trailer) are checked as S3 checks them, and a GetObject with checksum mode answers the object's.
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

/** S3 refuses a part but the last under 5 MiB, and more than 1000 keys in one DeleteObjects or list page. */
const MIN_PART_SIZE = 5 * 1024 * 1024;
const MAX_KEYS = 1000;

const header = (r: S3Request, name: string) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const ok = (body: string | Buffer = '', headers: Record<string, string> = {}, contentType = 'application/xml'): Answer => ({
  status: 200,
  contentType,
  body,
  headers,
});
const noContent = (): Answer => ({ status: 204, contentType: 'application/xml', body: '' });
/** S3's XML: an array is a flattened list (one `<Contents>` element per object), unlike the query protocols' `member`s. */
const s3Xml = (v: Record<string, XmlValue>): string =>
  Object.entries(v)
    .filter(([, x]) => x !== undefined && x !== null)
    .map(([k, x]) =>
      (Array.isArray(x) ? x : [x])
        .map(
          (item) => `<${k}>${item !== null && typeof item === 'object' && !Array.isArray(item) ? s3Xml(item as Record<string, XmlValue>) : xml(item)}</${k}>`,
        )
        .join(''),
    )
    .join('');
const xmlDoc = (root: string, inner: Record<string, XmlValue>) => `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${S3_NS}">${s3Xml(inner)}</${root}>`;

/** A body sent `aws-chunked` (streamed uploads, signed chunks or a trailing checksum): its chunks joined, and its trailers. */
function decodeChunked(b: Buffer): { data: Buffer; trailers: Record<string, string> } {
  const parts: Buffer[] = [];
  const trailers: Record<string, string> = {};
  let at = 0;
  for (;;) {
    const eol = b.indexOf('\r\n', at);
    if (eol < 0) break;
    const size = parseInt(b.subarray(at, eol).toString('latin1').split(';')[0]!, 16);
    if (!size) {
      // the last chunk: trailer lines (`x-amz-checksum-crc32:…`, `x-amz-trailer-signature:…`) up to an empty one
      for (const line of b
        .subarray(eol + 2)
        .toString('latin1')
        .split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) trailers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      break;
    }
    parts.push(b.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return { data: Buffer.concat(parts), trailers };
}

const CHECKSUMS: Record<string, { name: string; of: (data: Buffer) => Buffer } | undefined> = {
  crc32: { name: 'CRC32', of: (d) => u32(crc32(d)) },
  sha1: { name: 'SHA1', of: (d) => createHash('sha1').update(d).digest() },
  sha256: { name: 'SHA256', of: (d) => createHash('sha256').update(d).digest() },
  // CRC32C and CRC64NVME are kept as sent, unchecked
  crc32c: undefined,
  crc64nvme: undefined,
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};

/**
 * A request's payload, checked as S3 checks it: the decoded length of an aws-chunked body, Content-MD5, and the
 * x-amz-checksum-<algorithm> header or trailer. Answers the bytes and the checksum sent (for the object to keep).
 */
function payloadOf(r: S3Request): { data: Buffer; checksum: { algorithm: string; value: string } | null } {
  const chunked = (header(r, 'content-encoding') ?? '').includes('aws-chunked') || /^STREAMING-/.test(header(r, 'x-amz-content-sha256') ?? '');
  const { data, trailers } = chunked ? decodeChunked(r.body) : { data: r.body, trailers: {} as Record<string, string> };
  const declared = header(r, 'x-amz-decoded-content-length');
  if (chunked && declared !== undefined && Number(declared) !== data.length)
    throw new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
  const md5 = header(r, 'content-md5');
  if (md5 !== undefined && createHash('md5').update(data).digest('base64') !== md5)
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  let checksum: { algorithm: string; value: string } | null = null;
  for (const algorithm of Object.keys(CHECKSUMS)) {
    const value = header(r, `x-amz-checksum-${algorithm}`) ?? trailers[`x-amz-checksum-${algorithm}`];
    if (value === undefined) continue;
    const check = CHECKSUMS[algorithm];
    if (check && check.of(data).toString('base64') !== value)
      throw new S3Error(400, 'BadDigest', `The ${check.name} you specified did not match the calculated checksum.`);
    checksum = { algorithm, value };
  }
  return { data, checksum };
}

const etagOf = (data: Buffer) => `"${createHash('md5').update(data).digest('hex')}"`;

/** The text of each `<name>` element of an XML body, entities decoded (the SDKs escape quotes, `&` and line ends). */
const elements = (body: string, name: string) => [...body.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => m[1]!);
const unescapeXml = (s: string) =>
  s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' ? parseInt(e.slice(2), 16) : Number(e.slice(1)))
      : ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" } as Record<string, string>)[e]!,
  );

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
    if (r.method === 'GET' && r.query.get('list-type') === '2') return listObjectsV2(findBucket(w, bucketName), r);
    if (r.method === 'POST' && r.query.has('delete')) return deleteObjects(findBucket(w, bucketName), r);
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }

  const b = findBucket(w, bucketName);
  const uploadId = r.query.get('uploadId');
  if (r.method === 'POST' && r.query.has('uploads')) return createMultipartUpload(b, key, r);
  if (uploadId !== null) {
    const upload = b.uploads?.get(uploadId);
    if (!upload || upload.key !== key)
      throw new S3Error(
        404,
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
        {
          UploadId: uploadId,
        },
      );
    if (r.method === 'PUT') return uploadPart(upload, r);
    if (r.method === 'POST') return completeMultipartUpload(b, uploadId, upload, r, now);
    if (r.method === 'DELETE') {
      b.uploads!.delete(uploadId);
      return noContent();
    }
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  }
  if (r.method === 'PUT') {
    const { data, checksum } = payloadOf(r);
    const etag = etagOf(data);
    b.objects.set(
      key,
      standinObject(data, {
        etag,
        contentType: header(r, 'content-type') ?? 'binary/octet-stream',
        lastModified: now,
        ...(checksum ? { checksum: { ...checksum, type: 'FULL_OBJECT' as const } } : {}),
      }),
    );
    return ok('', { etag, ...(checksum ? { [`x-amz-checksum-${checksum.algorithm}`]: checksum.value } : {}) });
  }
  if (r.method === 'GET' || r.method === 'HEAD') {
    const o = b.objects.get(key);
    if (!o) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
    return getObject(o, r);
  }
  if (r.method === 'DELETE') {
    // deleting a key that is not there succeeds as well
    b.objects.delete(key);
    return noContent();
  }
  throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
}

/** GetObject and HeadObject: the whole object or one `Range: bytes=…` of it (206), its checksum when asked for the whole. */
function getObject(o: StandinObject, r: S3Request): Answer {
  const headers: Record<string, string> = {
    etag: o.etag,
    'last-modified': new Date(o.lastModified).toUTCString(),
    'accept-ranges': 'bytes',
  };
  const total = o.data.length;
  const range = header(r, 'range');
  if (range) {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    // a range S3 cannot read is ignored (the whole object); one past the end is refused
    if (m && (m[1] || m[2])) {
      const [start, end] = m[1] ? [Number(m[1]), m[2] ? Math.min(Number(m[2]), total - 1) : total - 1] : [Math.max(0, total - Number(m[2])), total - 1];
      if (start >= total || start > end)
        throw new S3Error(416, 'InvalidRange', 'The requested range is not satisfiable', { RangeRequested: range, ActualObjectSize: String(total) });
      const part = o.data.subarray(start, end + 1);
      return {
        status: 206,
        contentType: o.contentType,
        body: r.method === 'HEAD' ? '' : part,
        headers: { ...headers, 'content-range': `bytes ${start}-${end}/${total}`, 'content-length': String(part.length) },
      };
    }
  }
  const withChecksum = o.checksum && (header(r, 'x-amz-checksum-mode') ?? '').toUpperCase() === 'ENABLED';
  return {
    status: 200,
    contentType: o.contentType,
    body: r.method === 'HEAD' ? '' : o.data,
    headers: {
      ...headers,
      'content-length': String(total),
      ...(withChecksum ? { [`x-amz-checksum-${o.checksum!.algorithm}`]: o.checksum!.value, 'x-amz-checksum-type': o.checksum!.type } : {}),
    },
  };
}

/** S3 orders keys by their UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/**
 * ListObjectsV2: keys under `prefix` in byte order, after `start-after` or the continuation token, those with the
 * delimiter past the prefix rolled up into CommonPrefixes (each counts as one key), `max-keys` (at most 1000) a page;
 * `encoding-type=url` encodes the keys and prefixes as S3 does (the aws CLI asks for it).
 */
function listObjectsV2(b: StandinBucket, r: S3Request): Answer {
  const prefix = r.query.get('prefix') ?? '';
  const delimiter = r.query.get('delimiter') ?? '';
  const startAfter = r.query.get('start-after') ?? '';
  const token = r.query.get('continuation-token');
  const encoding = r.query.get('encoding-type');
  if (encoding !== null && encoding !== 'url') throw new S3Error(400, 'InvalidArgument', 'Invalid Encoding Method specified in Request');
  const maxKeysText = r.query.get('max-keys');
  const maxKeys = maxKeysText === null ? MAX_KEYS : Number(maxKeysText);
  if (!Number.isInteger(maxKeys) || maxKeys < 0) throw new S3Error(400, 'InvalidArgument', 'Provided max-keys not an integer or within integer range');
  // a continuation token holds the page's last key, or its last common prefix (whose keys are all behind)
  let after = startAfter;
  let rolledUp = false;
  if (token !== null) {
    try {
      ({ after, rolledUp } = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { after: string; rolledUp: boolean });
      if (typeof after !== 'string') throw new Error();
    } catch {
      throw new S3Error(400, 'InvalidArgument', 'The continuation token provided is incorrect');
    }
  }
  const keys = [...b.objects.keys()].filter((k) => k.startsWith(prefix) && byBytes(k, after) > 0).sort(byBytes);
  const contents: string[] = [];
  const common: string[] = [];
  let truncated = false;
  for (const k of keys) {
    // keys under a prefix already rolled up (this page's, or the one a continuation token ended on)
    if (common.length && k.startsWith(common[common.length - 1]!)) continue;
    if (rolledUp && k.startsWith(after)) continue;
    if (contents.length + common.length >= Math.min(maxKeys, MAX_KEYS)) {
      truncated = true;
      break;
    }
    const cut = delimiter ? k.indexOf(delimiter, prefix.length) : -1;
    if (cut >= 0) common.push(k.slice(0, cut + delimiter.length));
    else contents.push(k);
  }
  // the page's last entry: its keys and common prefixes each come in order, the greater of the two last
  const lastKey = contents[contents.length - 1] ?? '';
  const lastPrefix = common[common.length - 1] ?? '';
  const next = byBytes(lastPrefix, lastKey) > 0 ? { after: lastPrefix, rolledUp: true } : { after: lastKey, rolledUp: false };
  const enc = (s: string) => (encoding === 'url' ? encodeURIComponent(s).replace(/%20/g, '+').replace(/%2F/g, '/') : s);
  return ok(
    xmlDoc('ListBucketResult', {
      Name: b.name,
      Prefix: enc(prefix),
      ...(token !== null ? { ContinuationToken: token } : {}),
      ...(startAfter ? { StartAfter: enc(startAfter) } : {}),
      KeyCount: contents.length + common.length,
      MaxKeys: maxKeys,
      ...(delimiter ? { Delimiter: enc(delimiter) } : {}),
      ...(encoding ? { EncodingType: encoding } : {}),
      IsTruncated: truncated,
      ...(truncated ? { NextContinuationToken: Buffer.from(JSON.stringify(next)).toString('base64') } : {}),
      Contents: contents.map((k) => {
        const o = b.objects.get(k)!;
        return {
          Key: enc(k),
          LastModified: new Date(o.lastModified).toISOString(),
          ETag: o.etag,
          ...(o.checksum ? { ChecksumAlgorithm: o.checksum.algorithm.toUpperCase(), ChecksumType: o.checksum.type } : {}),
          Size: o.data.length,
          StorageClass: 'STANDARD',
        };
      }),
      CommonPrefixes: common.map((p) => ({ Prefix: enc(p) })),
    }),
  );
}

/** DeleteObjects: up to 1000 keys, with Content-MD5 or a checksum as S3 requires; a key that is not there is deleted too. */
function deleteObjects(b: StandinBucket, r: S3Request): Answer {
  if (header(r, 'content-md5') === undefined && !Object.keys(CHECKSUMS).some((a) => header(r, `x-amz-checksum-${a}`) !== undefined))
    throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: Content-MD5');
  const body = payloadOf(r).data.toString('utf8');
  const keys = elements(body, 'Object').map((o) => elements(o, 'Key')[0]);
  if (!/<Delete[\s>]/.test(body) || keys.length === 0 || keys.length > MAX_KEYS || keys.some((k) => k === undefined))
    throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
  const quiet = elements(body, 'Quiet')[0]?.trim() === 'true';
  const deleted = keys.map((k) => unescapeXml(k!));
  for (const k of deleted) b.objects.delete(k);
  return ok(xmlDoc('DeleteResult', { Deleted: quiet ? [] : deleted.map((Key) => ({ Key })) }));
}

function createMultipartUpload(b: StandinBucket, key: string, r: S3Request): Answer {
  const uploadId = randomBytes(24).toString('base64url');
  const algorithm = header(r, 'x-amz-checksum-algorithm')?.toLowerCase() ?? null;
  (b.uploads ??= new Map()).set(uploadId, {
    key,
    contentType: header(r, 'content-type') ?? 'binary/octet-stream',
    checksumAlgorithm: algorithm,
    parts: new Map(),
  });
  return ok(
    xmlDoc('InitiateMultipartUploadResult', { Bucket: b.name, Key: key, UploadId: uploadId }),
    algorithm ? { 'x-amz-checksum-algorithm': algorithm.toUpperCase() } : {},
  );
}

function uploadPart(upload: StandinUpload, r: S3Request): Answer {
  const partNumber = Number(r.query.get('partNumber'));
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10000)
    throw new S3Error(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive', {
      ArgumentName: 'partNumber',
      ArgumentValue: String(r.query.get('partNumber')),
    });
  const { data, checksum } = payloadOf(r);
  // a part of an upload started with a checksum algorithm gets that checksum (computed when the client sent none)
  const value =
    checksum?.algorithm === upload.checksumAlgorithm
      ? checksum.value
      : upload.checksumAlgorithm && CHECKSUMS[upload.checksumAlgorithm]
        ? CHECKSUMS[upload.checksumAlgorithm]!.of(data).toString('base64')
        : null;
  const etag = etagOf(data);
  upload.parts.set(partNumber, { data, etag, checksum: value });
  return ok('', { etag, ...(value ? { [`x-amz-checksum-${upload.checksumAlgorithm}`]: value } : {}) });
}

function completeMultipartUpload(b: StandinBucket, uploadId: string, upload: StandinUpload, r: S3Request, now: number): Answer {
  const body = payloadOf(r).data.toString('utf8');
  const algorithm = upload.checksumAlgorithm;
  const checksumElement = algorithm ? `Checksum${CHECKSUMS[algorithm]?.name ?? algorithm.toUpperCase()}` : '';
  const listed = elements(body, 'Part').map((p) => ({
    number: Number(elements(p, 'PartNumber')[0]),
    etag: unescapeXml(elements(p, 'ETag')[0] ?? ''),
    checksum: algorithm ? elements(p, checksumElement)[0] : undefined,
  }));
  if (!/<CompleteMultipartUpload[\s>]/.test(body) || listed.length === 0)
    throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
  const invalidPart = () =>
    new S3Error(
      400,
      'InvalidPart',
      "One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
      { UploadId: uploadId },
    );
  const parts = listed.map((p, i) => {
    if (i > 0 && p.number <= listed[i - 1]!.number)
      throw new S3Error(400, 'InvalidPartOrder', 'The list of parts was not in ascending order. Parts must be ordered by part number.', { UploadId: uploadId });
    const part = upload.parts.get(p.number);
    if (!part || part.etag !== (p.etag.startsWith('"') ? p.etag : `"${p.etag}"`)) throw invalidPart();
    if (algorithm && p.checksum === undefined)
      throw new S3Error(
        400,
        'InvalidRequest',
        `The upload was created using a ${algorithm} checksum. The complete request must include the checksum for each part. It was missing for part ${p.number} in the request.`,
      );
    if (algorithm && p.checksum !== part.checksum) throw invalidPart();
    if (i < listed.length - 1 && part.data.length < MIN_PART_SIZE)
      throw new S3Error(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.', {
        ProposedSize: String(part.data.length),
        MinSizeAllowed: String(MIN_PART_SIZE),
        PartNumber: String(p.number),
        ETag: part.etag,
      });
    return part;
  });
  // a multipart object's ETag (and checksum) is the MD5 (checksum) of its parts' binary digests, then `-<parts>`
  const etag = `"${createHash('md5')
    .update(Buffer.concat(parts.map((p) => Buffer.from(p.etag.slice(1, -1), 'hex'))))
    .digest('hex')}-${parts.length}"`;
  const composite =
    algorithm && CHECKSUMS[algorithm]
      ? `${CHECKSUMS[algorithm]!.of(Buffer.concat(parts.map((p) => Buffer.from(p.checksum ?? '', 'base64')))).toString('base64')}-${parts.length}`
      : null;
  b.objects.set(
    upload.key,
    standinObject(Buffer.concat(parts.map((p) => p.data)), {
      etag,
      contentType: upload.contentType,
      lastModified: now,
      ...(composite ? { checksum: { algorithm: algorithm!, value: composite, type: 'COMPOSITE' as const } } : {}),
    }),
  );
  b.uploads!.delete(uploadId);
  return ok(
    xmlDoc('CompleteMultipartUploadResult', {
      Location: `http://${header(r, 'host') ?? 's3'}/${b.name}/${upload.key.split('/').map(encodeURIComponent).join('/')}`,
      Bucket: b.name,
      Key: upload.key,
      ETag: etag,
      ...(composite ? { [checksumElement]: composite, ChecksumType: 'COMPOSITE' } : {}),
    }),
  );
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
