import {
  HeadBucketCommand,
  CreateBucketCommand,
  PutObjectCommand,
  PutBucketLifecycleConfigurationCommand,
  type BucketLocationConstraint,
} from '@aws-sdk/client-s3';
import { s3EndpointOverride, type CfnClients } from './clients.js';
import type { NestedResource } from './parent-template.js';

/** One bucket per account and region for nested templates (bucket names are global). */
export const templateBucketFor = (awsAccountId: string, region: string) => `gantry-templates-${awsAccountId}-${region}`;

/** How long an uploaded nested template is kept. */
export const TEMPLATE_RETENTION_DAYS = 30;

const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const named = (err: unknown, ...names: string[]) => names.includes((err as Error).name);

/** The bucket for nested templates, created when missing; a bucket of someone else (403) is an error. */
export async function ensureBucket(c: CfnClients, bucket: string, region: string) {
  try {
    await c.s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return false;
  } catch (err) {
    if (!named(err, 'NotFound', 'NoSuchBucket') && status(err) !== 404) throw err;
  }
  try {
    await c.s3.send(
      new CreateBucketCommand({
        Bucket: bucket,
        ...(region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }),
      }),
    );
  } catch (err) {
    // another deployment of the same account made it meanwhile
    if (!named(err, 'BucketAlreadyOwnedByYou')) throw err;
  }
  // every deployment uploads its own copies; CloudFormation keeps the templates it ran (rollbacks
  // do not fetch them again), so old uploads can go
  await c.s3.send(
    new PutBucketLifecycleConfigurationCommand({
      Bucket: bucket,
      LifecycleConfiguration: {
        Rules: [{ ID: 'gantry-expire-templates', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: TEMPLATE_RETENTION_DAYS } }],
      },
    }),
  );
  return true;
}

/** Where CloudFormation fetches an object: the configured S3 endpoint (path style) or AWS's regional one. */
export function objectUrl(bucket: string, region: string, key: string) {
  const endpoint = s3EndpointOverride();
  return endpoint
    ? `${endpoint.replace(/\/+$/, '')}/${bucket}/${key}`
    : `https://${bucket}.s3.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}/${key}`;
}

export const templateKey = (prefix: string, resource: string) => `${prefix}/${resource}.template`;

/** Where each nested template goes under `prefix` (`prefix/<resource>.template`): key and URL by resource name, nothing sent. */
export function templateLocations(o: { bucket: string; region: string; prefix: string; names: string[] }) {
  return Object.fromEntries(
    o.names.map((name) => {
      const key = templateKey(o.prefix, name);
      return [name, { key, url: objectUrl(o.bucket, o.region, key) }];
    }),
  );
}

/**
 * Uploads each nested template under `prefix/<resource>.template` (templateLocations); answers their URLs by resource
 * name. Call it once the parent template was built from those URLs: a template or reference it refuses uploads nothing.
 */
export async function uploadTemplates(
  c: CfnClients,
  o: { bucket: string; region: string; prefix: string; resources: Pick<NestedResource, 'name' | 'templateBody'>[] },
) {
  const at = templateLocations({ ...o, names: o.resources.map((r) => r.name) });
  await ensureBucket(c, o.bucket, o.region);
  for (const r of o.resources) {
    await c.s3.send(new PutObjectCommand({ Bucket: o.bucket, Key: at[r.name]!.key, Body: r.templateBody, ContentType: 'text/plain' }));
  }
  return Object.fromEntries(Object.entries(at).map(([name, { url }]) => [name, url]));
}
