import { pipeline, Transform, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { s3EndpointOverride } from '../integrations/aws/s3-endpoint.js';
import { artifactKey, type ArtifactStore } from './artifacts.js';

export interface S3ArtifactStore extends ArtifactStore {
  /** Throws, saying why, when the bucket cannot be used: missing, refused, unreachable, no credentials. */
  check(): Promise<void>;
}

/** How long the check at start waits for the bucket's answer (retries included) before saying it is unreachable. */
const CHECK_TIMEOUT_MS = 20_000;

/**
 * A client the standard AWS way: credentials from the SDK's chain (environment, profile, SSO, container or
 * instance role), region from AWS_REGION or the profile (else us-east-1, and a bucket elsewhere is followed to
 * its region), endpoint from AWS_ENDPOINT_URL_S3 / AWS_ENDPOINT_URL (then path-style: MinIO, Ceph, stand-ins).
 */
async function defaultClient(): Promise<S3Client> {
  const config: S3ClientConfig = {
    forcePathStyle: Boolean(s3EndpointOverride()),
    followRegionRedirects: true,
    requestHandler: { connectionTimeout: 5_000 },
  };
  const client = new S3Client(config);
  try {
    await client.config.region();
    return client;
  } catch {
    client.destroy();
    return new S3Client({ ...config, region: 'us-east-1' });
  }
}

const contentTypeOf = (key: string) => (key.endsWith('.zip') ? 'application/zip' : key.endsWith('.json') ? 'application/json' : 'application/octet-stream');
const named = (err: unknown, ...names: string[]) => names.includes((err as Error)?.name);
const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;

/**
 * Artifacts as objects of a bucket, under `prefix/`: uploads stream (multipart past 5 MiB, aborted when the body
 * or S3 fails), reads stream, a removal lists and deletes page by page. Keys are checked as the folder store
 * checks them: none leaves the prefix.
 */
export async function createS3ArtifactStore(o: { bucket: string; prefix: string; client?: S3Client }): Promise<S3ArtifactStore> {
  const client = o.client ?? (await defaultClient());
  const Bucket = o.bucket;
  const url = `s3://${o.bucket}${o.prefix ? `/${o.prefix}` : ''}`;
  const objectKey = (key: string) => (o.prefix ? `${o.prefix}/${artifactKey(key)}` : artifactKey(key));

  return {
    async put(key, body) {
      const Key = objectKey(key);
      let size = 0;
      let source: Buffer | string | Readable = body;
      if (typeof body === 'string' || Buffer.isBuffer(body)) size = Buffer.byteLength(body);
      else {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            size += chunk.length;
            done(null, chunk);
          },
        });
        // an error of the body (a zip that failed) reaches the upload through the counter, which then aborts
        pipeline(body, counter, () => undefined);
        source = counter;
      }
      // at most 2 parts of 5 MiB in memory per upload
      const upload = new Upload({ client, queueSize: 2, params: { Bucket, Key, Body: source, ContentType: contentTypeOf(Key) } });
      try {
        await upload.done();
      } catch (err) {
        if (typeof body !== 'string' && !Buffer.isBuffer(body)) body.destroy();
        throw new Error(`The artifact store (S3) did not take ${key}: ${(err as Error).message}`, { cause: err });
      }
      return { size };
    },

    async get(key) {
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: objectKey(key) }));
        return (res.Body as Readable | undefined) ?? null;
      } catch (err) {
        if (named(err, 'NoSuchKey')) return null;
        throw err;
      }
    },

    async removePrefix(prefix) {
      const base = objectKey(prefix);
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: `${base}/`, ContinuationToken }));
        const Objects = (page.Contents ?? []).map((c) => ({ Key: c.Key! }));
        if (Objects.length) {
          const res = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }));
          const failed = res.Errors ?? [];
          if (failed.length)
            throw new Error(
              `The artifact store (S3) kept ${failed.length} object${failed.length === 1 ? '' : 's'} under ${prefix}: ${failed[0]!.Code} ${failed[0]!.Message}`,
            );
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      // and an object named as the prefix itself, as a file of that name goes in the folder store
      await client.send(new DeleteObjectCommand({ Bucket, Key: base }));
    },

    async check() {
      const where = s3EndpointOverride() ?? `AWS (${await client.config.region()})`;
      try {
        await client.send(new HeadBucketCommand({ Bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      } catch (err) {
        const code = (err as { code?: string }).code;
        const why =
          named(err, 'NotFound', 'NoSuchBucket') || statusOf(err) === 404
            ? `the bucket ${Bucket} does not exist at ${where}`
            : statusOf(err) === 403
              ? `${where} refused access to the bucket ${Bucket} (403): check the credentials and that they may list, read, write and delete in it`
              : named(err, 'CredentialsProviderError')
                ? 'no AWS credentials were found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE, or run with a container or instance role'
                : code || named(err, 'AbortError', 'TimeoutError')
                  ? `cannot reach S3 at ${where} (${code ?? `no answer within ${CHECK_TIMEOUT_MS / 1000} s`})`
                  : `the bucket ${Bucket} cannot be used: ${(err as Error).name}: ${(err as Error).message}`;
        throw new Error(`ARTIFACT_STORE=${url}: ${why}`, { cause: err });
      }
    },
  };
}
