import {
  CloudFormationClient, CreateStackCommand, UpdateStackCommand, DeleteStackCommand, DescribeStacksCommand, DescribeStackEventsCommand,
  DescribeStackResourcesCommand, CancelUpdateStackCommand, ContinueUpdateRollbackCommand, type Stack, type StackEvent as CfnEvent, type Capability,
} from '@aws-sdk/client-cloudformation';
import { S3Client, HeadBucketCommand, CreateBucketCommand, PutObjectCommand, type BucketLocationConstraint } from '@aws-sdk/client-s3';

/**
 * CloudFormation engine adapter (DESIGN §5): a stack per environment whose resources are nested
 * stacks (`AWS::CloudFormation::Stack`), their templates uploaded to an S3 bucket of the account.
 * Clients use the SDK's own configuration chain for endpoints (`AWS_ENDPOINT_URL_CLOUDFORMATION`,
 * `AWS_ENDPOINT_URL_S3`), with the environment's assumed-role credentials.
 */
export interface AwsSession { region: string; credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } }
export interface CfnClients { cfn: CloudFormationClient; s3: S3Client }

export const clientsFor = (s: AwsSession): CfnClients => ({
  cfn: new CloudFormationClient({ region: s.region, credentials: s.credentials }),
  s3: new S3Client({ region: s.region, credentials: s.credentials, forcePathStyle: Boolean(process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL) }),
});

/** From the env-var form the cloud-accounts service gives. */
export const sessionFromEnv = (region: string, env: Record<string, string>): AwsSession => ({
  region, credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '', sessionToken: env.AWS_SESSION_TOKEN },
});

export interface NestedResource {
  /** The resource name, also the nested stack's logical id (letters and digits). */
  name: string;
  templateBody: string;
  /** Literal parameters, and references to another resource's output. */
  parameters: { key: string; value: string | number | boolean; reference: boolean }[];
}

const CAPABILITIES: Capability[] = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];
export const TERMINAL = (status: string) => !status.endsWith('_IN_PROGRESS');

/** The parent template: one nested stack per resource; a reference `res.Out` becomes `Fn::GetAtt [res, Outputs.Out]`. */
export function parentTemplate(resources: NestedResource[], templateUrl: (name: string) => string, tags: Record<string, string>): string {
  const names = new Set(resources.map((r) => r.name));
  const Resources: Record<string, unknown> = {};
  for (const r of resources) {
    const Parameters: Record<string, unknown> = {};
    const dependsOn = new Set<string>();
    for (const p of r.parameters) {
      if (p.reference) {
        const [res, out] = String(p.value).split('.');
        if (!res || !out || !names.has(res)) throw new Error(`${r.name}.${p.key} refers to ${p.value}, which is no resource output of this environment`);
        Parameters[p.key] = { 'Fn::GetAtt': [res, `Outputs.${out}`] };
        dependsOn.add(res);
      } else Parameters[p.key] = String(p.value);
    }
    Resources[r.name] = {
      Type: 'AWS::CloudFormation::Stack',
      Properties: { TemplateURL: templateUrl(r.name), Parameters, Tags: Object.entries(tags).map(([Key, Value]) => ({ Key, Value })) },
    };
  }
  return JSON.stringify({ AWSTemplateFormatVersion: '2010-09-09', Description: 'Gantry environment', Resources }, null, 2);
}

export const toStackEvent = (e: CfnEvent) => ({
  eventId: e.EventId ?? '', timestamp: (e.Timestamp ?? new Date(0)).toISOString(), logicalResourceId: e.LogicalResourceId ?? '',
  resourceType: e.ResourceType ?? '', resourceStatus: e.ResourceStatus ?? '', statusReason: e.ResourceStatusReason ?? null,
});
export type StackEventView = ReturnType<typeof toStackEvent>;

const notFound = (err: unknown) => /does not exist/.test((err as Error).message ?? '');

export async function describeStack(c: CfnClients, stackName: string): Promise<Stack | null> {
  try {
    return (await c.cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0] ?? null;
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
}

export async function stackEvents(c: CfnClients, stackName: string): Promise<StackEventView[]> {
  try {
    return ((await c.cfn.send(new DescribeStackEventsCommand({ StackName: stackName }))).StackEvents ?? []).map(toStackEvent);
  } catch (err) {
    if (notFound(err)) return [];
    throw err;
  }
}

/** The bucket for nested templates, created when missing. */
export async function ensureBucket(c: CfnClients, bucket: string, region: string) {
  try {
    await c.s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch {
    await c.s3.send(new CreateBucketCommand({ Bucket: bucket, ...(region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: region as BucketLocationConstraint } }) }));
  }
}

/** Uploads each nested template; answers their URLs by resource name. */
export async function uploadTemplates(c: CfnClients, o: { bucket: string; region: string; prefix: string; resources: NestedResource[] }) {
  await ensureBucket(c, o.bucket, o.region);
  const urls: Record<string, string> = {};
  for (const r of o.resources) {
    const key = `${o.prefix}/${r.name}.template`;
    await c.s3.send(new PutObjectCommand({ Bucket: o.bucket, Key: key, Body: r.templateBody, ContentType: 'text/plain' }));
    urls[r.name] = `https://${o.bucket}.s3.${o.region}.amazonaws.com/${key}`;
  }
  return urls;
}

/** CreateStack or UpdateStack; false when CloudFormation has nothing to update. */
export async function createOrUpdate(c: CfnClients, o: { stackName: string; templateBody: string; tags: Record<string, string> }): Promise<boolean> {
  const existing = await describeStack(c, o.stackName);
  const input = { StackName: o.stackName, TemplateBody: o.templateBody, Capabilities: CAPABILITIES, Tags: Object.entries(o.tags).map(([Key, Value]) => ({ Key, Value })) };
  if (!existing || existing.StackStatus === 'DELETE_COMPLETE') {
    await c.cfn.send(new CreateStackCommand(input));
    return true;
  }
  try {
    await c.cfn.send(new UpdateStackCommand(input));
    return true;
  } catch (err) {
    if (/No updates are to be performed/.test((err as Error).message)) return false;
    throw err;
  }
}

/**
 * Polls the stack until a terminal status, telling each status and each new event once. A cancel
 * does not stop the polling: CloudFormation rolls back (or deletes) and that end is what is reported.
 */
export async function waitForStack(c: CfnClients, o: {
  stackName: string; pollMs?: number;
  onStatus?: (status: string) => Promise<void> | void; onEvent?: (e: StackEventView) => void;
}): Promise<string> {
  const seen = new Set<string>();
  let last = '';
  for (;;) {
    const stack = await describeStack(c, o.stackName);
    const status = stack?.StackStatus ?? 'DELETE_COMPLETE';
    const events = (await stackEvents(c, o.stackName)).reverse();
    for (const e of events) if (!seen.has(e.eventId)) { seen.add(e.eventId); o.onEvent?.(e); }
    if (status !== last) { last = status; await o.onStatus?.(status); }
    if (TERMINAL(status)) return status;
    await new Promise((r) => setTimeout(r, o.pollMs ?? 3000));
  }
}

export const deleteStack = (c: CfnClients, stackName: string) => c.cfn.send(new DeleteStackCommand({ StackName: stackName }));
export const cancelUpdate = (c: CfnClients, stackName: string) => c.cfn.send(new CancelUpdateStackCommand({ StackName: stackName }));
export const continueRollback = (c: CfnClients, stackName: string) => c.cfn.send(new ContinueUpdateRollbackCommand({ StackName: stackName }));

/** The nested stacks of the environment's stack: resource name → physical id and status. */
export async function nestedStacks(c: CfnClients, stackName: string) {
  try {
    const res = (await c.cfn.send(new DescribeStackResourcesCommand({ StackName: stackName }))).StackResources ?? [];
    return res.filter((r) => r.ResourceType === 'AWS::CloudFormation::Stack').map((r) => ({ name: r.LogicalResourceId ?? '', stackId: r.PhysicalResourceId ?? '', status: r.ResourceStatus ?? '' }));
  } catch (err) {
    if (notFound(err)) return [];
    throw err;
  }
}

/** Error events grouped per resource (the deployment's `logs`). */
export function errorLogs(events: StackEventView[]) {
  const logs: Record<string, { errorMessages: { logicalResourceId: string; resourceType: string; statusReason: string }[] }> = {};
  for (const e of events) {
    if (!e.resourceStatus.includes('FAILED') || !e.statusReason) continue;
    (logs[e.logicalResourceId] ??= { errorMessages: [] }).errorMessages.push({ logicalResourceId: e.logicalResourceId, resourceType: e.resourceType, statusReason: e.statusReason });
  }
  return logs;
}
