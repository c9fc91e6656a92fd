import { describe, it, expect, beforeEach, afterAll } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  CloudFormationClient,
  CloudFormationServiceException,
  CreateStackCommand,
  UpdateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  type Stack,
  type StackEvent,
  type StackStatus,
  type ResourceStatus,
  type Output,
} from '@aws-sdk/client-cloudformation';
import {
  S3Client,
  HeadBucketCommand,
  CreateBucketCommand,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  NotFound,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  clientsFor,
  sessionFromEnv,
  templateBucketFor,
  uploadTemplates,
  createOrUpdate,
  eventIdsOf,
  followStack,
  deleteStack,
  nestedStacks,
  stackAndNestedEvents,
  type NestedResource,
  type StackEventView,
} from './index.js';

/**
 * The steps the CloudFormation engine (modules/deployments/cloudformation-engine.ts) composes: the nested templates'
 * bucket and uploads, CreateStack/UpdateStack, the following of a stack and its nested stacks to their end, and the
 * reads of their events. CloudFormation and S3 as SDK stubs answering in the APIs' real response shapes (DESIGN §7):
 * a small scripted stack whose every DescribeStacks moves one frame on, its events accumulating (DescribeStackEvents
 * answers newest first), nested stacks with their own events.
 */
const cfn = mockClient(CloudFormationClient);
const s3 = mockClient(S3Client);
afterAll(() => {
  cfn.restore();
  s3.restore();
});

const REGION = 'eu-west-1';
const ACCOUNT = '123456789012';
const STAGE = '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b';
const STACK = `gantry-shop-${STAGE.slice(0, 8)}`;
const STACK_ID = `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${STACK}/1f2e3d4c-a8b9-11ef-9b7a-0a1b2c3d4e5f`;
const CHILD = (r: string) => `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${STACK}-${r}-1K2EXAMPLE3M/2a3b4c5d-a8b9-11ef-8d1e-06c1f0a2b3c4`;
const ENV_CREDS = { AWS_ACCESS_KEY_ID: 'ASIAROLEEXAMPLE', AWS_SECRET_ACCESS_KEY: 'role-secret', AWS_SESSION_TOKEN: 'role-token' };
const BUCKET = `gantry-templates-${ACCOUNT}-${REGION}`;
const c = clientsFor(sessionFromEnv(REGION, ENV_CREDS));
const TAGS = { 'gantry:environment': STAGE };
const DEPLOYED = ['CREATE_COMPLETE', 'UPDATE_COMPLETE'];

const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, s));
let n = 0;
/** An event of the parent (resource: null) or of a resource's nested stack. */
function ev(resource: string | null, logical: string, type: string, status: string, s: number, reason?: string): StackEvent {
  const stackId = resource ? CHILD(resource) : STACK_ID;
  const self = logical === STACK || (resource !== null && logical === `${STACK}-${resource}-1K2EXAMPLE3M`);
  return {
    StackId: stackId,
    EventId: self ? `${(++n).toString(16).padStart(8, '0')}-a8b9-11ef-9b7a-0a1b2c3d4e5f` : `${logical}-${status}-${at(s).toISOString()}`,
    StackName: resource ? `${STACK}-${resource}-1K2EXAMPLE3M` : STACK,
    LogicalResourceId: logical,
    PhysicalResourceId: self ? stackId : type === 'AWS::CloudFormation::Stack' ? CHILD(logical) : `${logical.toLowerCase()}-0a1b2c3d4e5f67890`,
    ResourceType: type,
    Timestamp: at(s),
    ResourceStatus: status as ResourceStatus,
    ...(reason ? { ResourceStatusReason: reason } : {}),
  };
}
const stackEv = (status: string, s: number, reason?: string) => ev(null, STACK, 'AWS::CloudFormation::Stack', status, s, reason);
const nestedEv = (r: string, status: string, s: number, reason?: string) => ev(null, r, 'AWS::CloudFormation::Stack', status, s, reason);
const childSelf = (r: string, status: string, s: number) => ev(r, `${STACK}-${r}-1K2EXAMPLE3M`, 'AWS::CloudFormation::Stack', status, s);

interface Frame {
  status: string;
  events?: StackEvent[];
  nested?: Record<string, string>;
  outputs?: Output[];
}
const notExist = (ref: string) =>
  new CloudFormationServiceException({
    name: 'ValidationError',
    $fault: 'client',
    $metadata: { httpStatusCode: 400, requestId: 'b6c1b1d5-0f0a-4c0e-9a55-5f1f0c1d2e3f' },
    message: `Stack with id ${ref} does not exist`,
  });
const describe_ = (status: string, outputs: Output[] = []): Stack => ({
  StackId: STACK_ID,
  StackName: STACK,
  Description: 'Gantry environment',
  Parameters: [],
  CreationTime: at(0),
  LastUpdatedTime: at(1),
  RollbackConfiguration: {},
  StackStatus: status as StackStatus,
  DisableRollback: false,
  NotificationARNs: [],
  Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
  Outputs: outputs,
  Tags: [{ Key: 'gantry:environment', Value: STAGE }],
  EnableTerminationProtection: false,
  DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
});

/** The scripted stack: `before` is what exists when the call starts; each operation command plays its frames. */
function world(o: {
  before?: Frame | null;
  ops?: Partial<Record<'CreateStack' | 'UpdateStack' | 'DeleteStack' | 'CancelUpdateStack' | 'ContinueUpdateRollback', Frame[] | 'no-updates'>>;
}) {
  let current: Frame | null = o.before ?? null;
  let playing: Frame[] = [];
  const events: StackEvent[] = [...(o.before?.events ?? [])];
  let nested: Record<string, string> = { ...o.before?.nested };
  const advance = () => {
    const f = playing.shift();
    if (!f) return;
    current = f;
    events.push(...(f.events ?? []));
    nested = { ...nested, ...f.nested };
  };
  const start = (op: keyof NonNullable<typeof o.ops>) => () => {
    const frames = o.ops?.[op];
    if (!frames) throw new Error(`unexpected ${op}`);
    if (frames === 'no-updates')
      throw new CloudFormationServiceException({
        name: 'ValidationError',
        $fault: 'client',
        $metadata: { httpStatusCode: 400 },
        message: 'No updates are to be performed.',
      });
    playing = [...frames];
    if (op === 'CreateStack') {
      events.length = 0;
      nested = {};
    }
    return op === 'CreateStack' || op === 'UpdateStack' ? { StackId: STACK_ID } : { $metadata: { httpStatusCode: 200 } };
  };
  const isParent = (ref?: string) => ref === STACK || ref === STACK_ID;
  const childOf = (ref?: string) => Object.keys(nested).find((r) => CHILD(r) === ref);
  cfn.on(DescribeStacksCommand).callsFake(({ StackName }: { StackName?: string }) => {
    const child = childOf(StackName);
    if (child)
      return {
        Stacks: [{ ...describe_(nested[child]!), StackId: CHILD(child), StackName: `${STACK}-${child}-1K2EXAMPLE3M`, ParentId: STACK_ID, RootId: STACK_ID }],
      };
    if (!isParent(StackName)) throw notExist(StackName ?? '');
    advance();
    if (!current || (current.status === 'DELETE_COMPLETE' && StackName === STACK)) throw notExist(StackName ?? '');
    return { Stacks: [describe_(current.status, current.outputs)] };
  });
  cfn.on(DescribeStackEventsCommand).callsFake(({ StackName }: { StackName?: string }) => {
    const child = childOf(StackName);
    if (!child && (!isParent(StackName) || !current || (current.status === 'DELETE_COMPLETE' && StackName === STACK))) throw notExist(StackName ?? '');
    const mine = events.filter((e) => (child ? e.StackId === CHILD(child) : e.StackId === STACK_ID));
    return { StackEvents: [...mine].sort((a, b) => b.Timestamp!.getTime() - a.Timestamp!.getTime()) };
  });
  cfn.on(DescribeStackResourcesCommand).callsFake(({ StackName }: { StackName?: string }) => {
    if (!isParent(StackName) || !current) throw notExist(StackName ?? '');
    return {
      StackResources: Object.entries(nested).map(([r, status]) => ({
        StackName: STACK,
        StackId: STACK_ID,
        LogicalResourceId: r,
        PhysicalResourceId: CHILD(r),
        ResourceType: 'AWS::CloudFormation::Stack',
        Timestamp: at(30),
        ResourceStatus: status as ResourceStatus,
        DriftInformation: { StackResourceDriftStatus: 'NOT_CHECKED' },
      })),
    };
  });
  cfn.on(CreateStackCommand).callsFake(start('CreateStack'));
  cfn.on(UpdateStackCommand).callsFake(start('UpdateStack'));
  cfn.on(DeleteStackCommand).callsFake(start('DeleteStack'));
  cfn.on(CancelUpdateStackCommand).callsFake(start('CancelUpdateStack'));
  cfn.on(ContinueUpdateRollbackCommand).callsFake(start('ContinueUpdateRollback'));
}

const VPC_T = 'Resources:\n  Vpc:\n    Type: AWS::EC2::VPC\n    Properties: { CidrBlock: 10.0.0.0/16 }\nOutputs:\n  VpcId: { Value: !Ref Vpc }\n';
const APP_T =
  'Parameters:\n  VpcId: { Type: String }\n  Size: { Type: Number }\n  Token: { Type: String, NoEcho: true }\nResources:\n  Service:\n    Type: AWS::ECS::Service\nOutputs:\n  ServiceName: { Value: !GetAtt Service.Name }\n';
const RESOURCES: NestedResource[] = [
  { name: 'vpc', templateBody: VPC_T, parameters: [] },
  { name: 'app', templateBody: APP_T, parameters: [] },
];

function follower() {
  const statuses: string[] = [];
  const batches: StackEventView[][] = [];
  return { statuses, batches, onStatus: (s: string) => void statuses.push(s), onEvents: (e: StackEventView[]) => void batches.push(e) };
}
/** What the engine does to deploy: CreateStack (or UpdateStack) of the stack, then follows it, leaving out the events before. */
async function deploy(f: ReturnType<typeof follower> = follower(), goal: readonly string[] = DEPLOYED) {
  const seen = await eventIdsOf(c, STACK);
  expect(await createOrUpdate(c, { stackName: STACK, templateBody: '{"Resources":{}}', tags: TAGS })).toBe(true);
  return followStack(c, STACK, STACK, f, seen, goal, 1);
}
/** What the engine does to undeploy: DeleteStack, followed by the stack's id (a deleted stack answers only by it). */
async function undeploy(f: ReturnType<typeof follower> = follower()) {
  const seen = await eventIdsOf(c, STACK_ID);
  await deleteStack(c, STACK);
  return followStack(c, STACK_ID, STACK, f, seen, ['DELETE_COMPLETE'], 1);
}
const line = (e: StackEventView) => `${e.logicalResourceId} ${e.resourceStatus}${e.statusReason ? ` ${e.statusReason}` : ''}`;

beforeEach(() => {
  cfn.reset();
  s3.reset();
  n = 0;
  s3.on(HeadBucketCommand).rejects(new NotFound({ $metadata: { httpStatusCode: 404 }, message: 'UnknownError' }));
  s3.on(CreateBucketCommand).resolves({ Location: `http://${BUCKET}.s3.amazonaws.com/`, $metadata: { httpStatusCode: 200 } });
  s3.on(PutBucketLifecycleConfigurationCommand).resolves({ $metadata: { httpStatusCode: 200 } });
  s3.on(PutObjectCommand).resolves({ ETag: '"9b2cf535f27731c974343645a3985328"', ServerSideEncryption: 'AES256', $metadata: { httpStatusCode: 200 } });
});

const CREATE: Frame[] = [
  {
    status: 'CREATE_IN_PROGRESS',
    events: [stackEv('CREATE_IN_PROGRESS', 1, 'User Initiated'), nestedEv('vpc', 'CREATE_IN_PROGRESS', 2)],
    nested: { vpc: 'CREATE_IN_PROGRESS' },
  },
  {
    status: 'CREATE_IN_PROGRESS',
    events: [
      nestedEv('vpc', 'CREATE_IN_PROGRESS', 3, 'Resource creation Initiated'),
      childSelf('vpc', 'CREATE_IN_PROGRESS', 3),
      ev('vpc', 'Vpc', 'AWS::EC2::VPC', 'CREATE_IN_PROGRESS', 4),
    ],
  },
  {
    status: 'CREATE_IN_PROGRESS',
    events: [
      ev('vpc', 'Vpc', 'AWS::EC2::VPC', 'CREATE_COMPLETE', 9),
      childSelf('vpc', 'CREATE_COMPLETE', 10),
      nestedEv('vpc', 'CREATE_COMPLETE', 11),
      nestedEv('app', 'CREATE_IN_PROGRESS', 12),
    ],
    nested: { vpc: 'CREATE_COMPLETE', app: 'CREATE_IN_PROGRESS' },
  },
  {
    status: 'CREATE_COMPLETE',
    events: [ev('app', 'Service', 'AWS::ECS::Service', 'CREATE_COMPLETE', 40), nestedEv('app', 'CREATE_COMPLETE', 41), stackEv('CREATE_COMPLETE', 42)],
    nested: { app: 'CREATE_COMPLETE' },
  },
];

describe('the templates bucket and uploads', () => {
  it('makes the bucket in its region with the 30-day expiry, and puts each template under the prefix, answering their URLs', async () => {
    const urls = await uploadTemplates(c, { bucket: BUCKET, region: REGION, prefix: `${STAGE}/dep-1`, resources: RESOURCES });
    expect(urls).toEqual({
      vpc: `https://${BUCKET}.s3.${REGION}.amazonaws.com/${STAGE}/dep-1/vpc.template`,
      app: `https://${BUCKET}.s3.${REGION}.amazonaws.com/${STAGE}/dep-1/app.template`,
    });
    expect(s3.commandCalls(CreateBucketCommand).map((call) => call.args[0].input)).toEqual([
      { Bucket: BUCKET, CreateBucketConfiguration: { LocationConstraint: REGION } },
    ]);
    expect(s3.commandCalls(PutBucketLifecycleConfigurationCommand)[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      LifecycleConfiguration: { Rules: [{ ID: 'gantry-expire-templates', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 30 } }] },
    });
    const puts = s3.commandCalls(PutObjectCommand).map((call) => call.args[0].input);
    expect(puts.map((put) => [put.Bucket, put.Key])).toEqual([
      [BUCKET, `${STAGE}/dep-1/vpc.template`],
      [BUCKET, `${STAGE}/dep-1/app.template`],
    ]);
    expect(puts[1]!.Body).toBe(APP_T);
    // with the environment's credentials and region, not Gantry's own
    const client = s3.commandCalls(PutObjectCommand)[0]!.thisValue as S3Client;
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'ASIAROLEEXAMPLE', sessionToken: 'role-token' });
    expect(await client.config.region()).toBe(REGION);
  });

  it('uses the bucket that exists, in us-east-1 creates one without a location constraint, and stops at a bucket of someone else', async () => {
    s3.on(HeadBucketCommand).resolves({ BucketRegion: REGION, AccessPointAlias: false, $metadata: { httpStatusCode: 200 } });
    await uploadTemplates(c, { bucket: BUCKET, region: REGION, prefix: 'p', resources: RESOURCES });
    expect(s3.commandCalls(CreateBucketCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutBucketLifecycleConfigurationCommand)).toHaveLength(0);

    s3.on(HeadBucketCommand).rejects(new NotFound({ $metadata: { httpStatusCode: 404 }, message: 'UnknownError' }));
    const east = templateBucketFor(ACCOUNT, 'us-east-1');
    await uploadTemplates(clientsFor(sessionFromEnv('us-east-1', ENV_CREDS)), { bucket: east, region: 'us-east-1', prefix: 'p', resources: RESOURCES });
    expect(s3.commandCalls(CreateBucketCommand)[0]!.args[0].input).toEqual({ Bucket: `gantry-templates-${ACCOUNT}-us-east-1` });

    s3.on(HeadBucketCommand).rejects(
      new S3ServiceException({ name: 'Forbidden', $fault: 'client', $metadata: { httpStatusCode: 403 }, message: 'UnknownError' }),
    );
    await expect(uploadTemplates(c, { bucket: BUCKET, region: REGION, prefix: 'p', resources: RESOURCES })).rejects.toMatchObject({ name: 'Forbidden' });
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(4);
  });
});

describe('following a stack', () => {
  it('follows a create and its nested stacks to CREATE_COMPLETE, telling each event once, oldest first', async () => {
    world({ ops: { CreateStack: CREATE } });
    const f = follower();
    expect(await deploy(f)).toEqual({
      status: 'CREATE_COMPLETE',
      succeeded: true,
      resources: { vpc: 'CREATE_COMPLETE', app: 'CREATE_COMPLETE' },
      logs: {},
    });
    expect(f.statuses).toEqual(['CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    // nested ones under their resource; a child's events about itself are left out
    expect(f.batches.map((b) => b.map(line))).toEqual([
      [`${STACK} CREATE_IN_PROGRESS User Initiated`, 'vpc CREATE_IN_PROGRESS'],
      ['vpc CREATE_IN_PROGRESS Resource creation Initiated', 'vpc/Vpc CREATE_IN_PROGRESS'],
      ['vpc/Vpc CREATE_COMPLETE', 'vpc CREATE_COMPLETE', 'app CREATE_IN_PROGRESS'],
      ['app/Service CREATE_COMPLETE', 'app CREATE_COMPLETE', `${STACK} CREATE_COMPLETE`],
    ]);
    expect(f.batches[1]![1]).toEqual({
      eventId: `Vpc-CREATE_IN_PROGRESS-${at(4).toISOString()}`,
      timestamp: '2026-11-22T10:00:04.000Z',
      logicalResourceId: 'vpc/Vpc',
      resourceType: 'AWS::EC2::VPC',
      resourceStatus: 'CREATE_IN_PROGRESS',
      statusReason: null,
    });
    expect(cfn.commandCalls(CreateStackCommand)[0]!.args[0].input).toMatchObject({
      StackName: STACK,
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      Tags: [{ Key: 'gantry:environment', Value: STAGE }],
    });
    const client = cfn.commandCalls(DescribeStacksCommand)[0]!.thisValue as CloudFormationClient;
    expect(await client.config.region()).toBe(REGION);
    expect(client.config.endpoint).toBeUndefined(); // endpoints stay with the SDK's chain
  });

  it("an update tells only its own events (not the stack's or its nested stacks' history)", async () => {
    world({
      before: {
        status: 'CREATE_COMPLETE',
        events: [stackEv('CREATE_IN_PROGRESS', 1), ev('app', 'Service', 'AWS::ECS::Service', 'CREATE_COMPLETE', 5), stackEv('CREATE_COMPLETE', 6)],
        nested: { vpc: 'CREATE_COMPLETE', app: 'CREATE_COMPLETE' },
      },
      ops: {
        UpdateStack: [
          {
            status: 'UPDATE_IN_PROGRESS',
            events: [stackEv('UPDATE_IN_PROGRESS', 20, 'User Initiated'), nestedEv('app', 'UPDATE_IN_PROGRESS', 21)],
            nested: { app: 'UPDATE_IN_PROGRESS' },
          },
          {
            status: 'UPDATE_COMPLETE',
            events: [ev('app', 'Service', 'AWS::ECS::Service', 'UPDATE_COMPLETE', 30), nestedEv('app', 'UPDATE_COMPLETE', 31), stackEv('UPDATE_COMPLETE', 32)],
            nested: { app: 'UPDATE_COMPLETE' },
          },
        ],
      },
    });
    const f = follower();
    expect(await deploy(f)).toMatchObject({ status: 'UPDATE_COMPLETE', succeeded: true });
    expect(cfn.commandCalls(UpdateStackCommand)[0]!.args[0].input.StackName).toBe(STACK);
    expect(f.statuses).toEqual(['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE']);
    expect(f.batches.flat().map(line)).toEqual([
      `${STACK} UPDATE_IN_PROGRESS User Initiated`,
      'app UPDATE_IN_PROGRESS',
      'app/Service UPDATE_COMPLETE',
      'app UPDATE_COMPLETE',
      `${STACK} UPDATE_COMPLETE`,
    ]);
  });

  it('a failed create ends in ROLLBACK_COMPLETE with the error events grouped per resource, causes first', async () => {
    const reason =
      'Resource handler returned message: "Invalid request provided: CreateService error: The target group with targetGroupArn arn:aws:elasticloadbalancing:eu-west-1:123456789012:targetgroup/x/0123456789abcdef does not have an associated load balancer." (RequestToken: 4f1b2c3d, HandlerErrorCode: InvalidRequest)';
    world({
      ops: {
        CreateStack: [
          CREATE[0]!,
          CREATE[1]!,
          CREATE[2]!,
          {
            status: 'ROLLBACK_IN_PROGRESS',
            events: [
              ev('app', 'Service', 'AWS::ECS::Service', 'CREATE_FAILED', 39, reason),
              ev('app', 'LogGroup', 'AWS::Logs::LogGroup', 'CREATE_FAILED', 40, 'Resource creation cancelled'),
              nestedEv(
                'app',
                'CREATE_FAILED',
                41,
                `Embedded stack ${CHILD('app')} was not successfully created: The following resource(s) failed to create: [Service, LogGroup]. `,
              ),
              stackEv('ROLLBACK_IN_PROGRESS', 42, 'The following resource(s) failed to create: [app]. Rollback requested by user.'),
            ],
            nested: { app: 'CREATE_FAILED' },
          },
          {
            status: 'ROLLBACK_COMPLETE',
            events: [nestedEv('app', 'DELETE_COMPLETE', 50), nestedEv('vpc', 'DELETE_COMPLETE', 55), stackEv('ROLLBACK_COMPLETE', 56)],
            nested: { vpc: 'DELETE_COMPLETE', app: 'DELETE_COMPLETE' },
          },
        ],
      },
    });
    const f = follower();
    const out = await deploy(f);
    expect(out).toMatchObject({ status: 'ROLLBACK_COMPLETE', succeeded: false, resources: { vpc: 'DELETE_COMPLETE', app: 'DELETE_COMPLETE' } });
    expect(out.logs).toEqual({
      app: {
        errorMessages: [
          { logicalResourceId: 'Service', resourceType: 'AWS::ECS::Service', statusReason: reason },
          { logicalResourceId: 'LogGroup', resourceType: 'AWS::Logs::LogGroup', statusReason: 'Resource creation cancelled' },
          { logicalResourceId: 'app', resourceType: 'AWS::CloudFormation::Stack', statusReason: expect.stringContaining('was not successfully created') },
        ],
      },
    });
    expect(f.statuses).toEqual(['CREATE_IN_PROGRESS', 'ROLLBACK_IN_PROGRESS', 'ROLLBACK_COMPLETE']);
  });

  it('reads a settled nested stack again when a rollback moves it (its delete failure is reported)', async () => {
    const reason =
      'Resource handler returned message: "The vpc \'vpc-0a1b2c3d4e5f67890\' has dependencies and cannot be deleted." (HandlerErrorCode: GeneralServiceException)';
    world({
      ops: {
        CreateStack: [
          CREATE[0]!,
          CREATE[1]!,
          CREATE[2]!,
          {
            status: 'ROLLBACK_IN_PROGRESS',
            events: [nestedEv('app', 'CREATE_FAILED', 41, 'Embedded stack was not successfully created'), stackEv('ROLLBACK_IN_PROGRESS', 42)],
            nested: { app: 'CREATE_FAILED', vpc: 'DELETE_IN_PROGRESS' },
          },
          {
            status: 'ROLLBACK_FAILED',
            events: [
              ev('vpc', 'Vpc', 'AWS::EC2::VPC', 'DELETE_FAILED', 50, reason),
              nestedEv('vpc', 'DELETE_FAILED', 51, 'Embedded stack was not successfully deleted'),
              stackEv('ROLLBACK_FAILED', 52, 'The following resource(s) failed to delete: [vpc]. '),
            ],
            nested: { vpc: 'DELETE_FAILED' },
          },
        ],
      },
    });
    const out = await deploy();
    expect(out).toMatchObject({ status: 'ROLLBACK_FAILED', succeeded: false, resources: { vpc: 'DELETE_FAILED', app: 'CREATE_FAILED' } });
    expect(out.logs.vpc!.errorMessages.map((m) => m.logicalResourceId)).toEqual(['Vpc', 'vpc']);
    expect(out.logs.vpc!.errorMessages[0]!.statusReason).toBe(reason);
  });

  it('a create the user cancels (DeleteStack, as the engine does) is followed by its id to DELETE_COMPLETE, no success', async () => {
    world({
      ops: {
        CreateStack: Array.from({ length: 1000 }, () => ({ status: 'CREATE_IN_PROGRESS' })),
        DeleteStack: [
          { status: 'DELETE_IN_PROGRESS', events: [stackEv('DELETE_IN_PROGRESS', 20, 'User Initiated')] },
          { status: 'DELETE_COMPLETE', events: [stackEv('DELETE_COMPLETE', 30)] },
        ],
      },
    });
    const f = follower();
    let cancelled: Promise<unknown> | undefined;
    const out = await deploy({
      ...f,
      onStatus: (status: string) => {
        f.statuses.push(status);
        cancelled ??= deleteStack(c, STACK);
      },
    });
    await cancelled;
    expect(out).toEqual({ status: 'DELETE_COMPLETE', succeeded: false, resources: {}, logs: {} });
    expect(f.statuses).toEqual(['CREATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
    expect(f.batches.flat().map(line)).toEqual([`${STACK} DELETE_IN_PROGRESS User Initiated`, `${STACK} DELETE_COMPLETE`]);
  });

  it('an undeploy is followed by the stack id to DELETE_COMPLETE, with its nested stacks', async () => {
    world({
      before: { status: 'UPDATE_COMPLETE', events: [stackEv('UPDATE_COMPLETE', 1)], nested: { vpc: 'CREATE_COMPLETE' } },
      ops: {
        DeleteStack: [
          {
            status: 'DELETE_IN_PROGRESS',
            events: [stackEv('DELETE_IN_PROGRESS', 10, 'User Initiated'), nestedEv('vpc', 'DELETE_IN_PROGRESS', 11)],
            nested: { vpc: 'DELETE_IN_PROGRESS' },
          },
          {
            status: 'DELETE_COMPLETE',
            events: [ev('vpc', 'Vpc', 'AWS::EC2::VPC', 'DELETE_COMPLETE', 20), nestedEv('vpc', 'DELETE_COMPLETE', 21), stackEv('DELETE_COMPLETE', 22)],
            nested: { vpc: 'DELETE_COMPLETE' },
          },
        ],
      },
    });
    const f = follower();
    expect(await undeploy(f)).toEqual({ status: 'DELETE_COMPLETE', succeeded: true, resources: { vpc: 'DELETE_COMPLETE' }, logs: {} });
    expect(f.statuses).toEqual(['DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
    expect(f.batches.flat().map(line)).toEqual([
      `${STACK} DELETE_IN_PROGRESS User Initiated`,
      'vpc DELETE_IN_PROGRESS',
      'vpc/Vpc DELETE_COMPLETE',
      'vpc DELETE_COMPLETE',
      `${STACK} DELETE_COMPLETE`,
    ]);
    expect(cfn.commandCalls(DescribeStacksCommand).every((call) => call.args[0].input.StackName === STACK_ID)).toBe(true);
  });

  it('an undeploy ending DELETE_FAILED tells its error events, the parent stack its own under its name', async () => {
    const reason =
      'Resource handler returned message: "The vpc \'vpc-0a1b2c3d4e5f67890\' has dependencies and cannot be deleted." (HandlerErrorCode: GeneralServiceException)';
    world({
      before: { status: 'CREATE_COMPLETE', nested: { vpc: 'CREATE_COMPLETE' } },
      ops: {
        DeleteStack: [
          { status: 'DELETE_IN_PROGRESS', events: [stackEv('DELETE_IN_PROGRESS', 10, 'User Initiated')], nested: { vpc: 'DELETE_IN_PROGRESS' } },
          {
            status: 'DELETE_FAILED',
            events: [
              ev('vpc', 'Vpc', 'AWS::EC2::VPC', 'DELETE_FAILED', 20, reason),
              nestedEv('vpc', 'DELETE_FAILED', 21, 'Embedded stack was not successfully deleted'),
              stackEv('DELETE_FAILED', 22, 'The following resource(s) failed to delete: [vpc]. '),
            ],
            nested: { vpc: 'DELETE_FAILED' },
          },
        ],
      },
    });
    const out = await undeploy();
    expect(out).toMatchObject({ status: 'DELETE_FAILED', succeeded: false, resources: { vpc: 'DELETE_FAILED' } });
    expect(out.logs).toEqual({
      vpc: {
        errorMessages: [
          { logicalResourceId: 'Vpc', resourceType: 'AWS::EC2::VPC', statusReason: reason },
          { logicalResourceId: 'vpc', resourceType: 'AWS::CloudFormation::Stack', statusReason: 'Embedded stack was not successfully deleted' },
        ],
      },
      [STACK]: {
        errorMessages: [
          { logicalResourceId: STACK, resourceType: 'AWS::CloudFormation::Stack', statusReason: 'The following resource(s) failed to delete: [vpc]. ' },
        ],
      },
    });
  });
});

describe('reads', () => {
  it("events of the stack and its nested stacks, newest first, and the nested stacks' statuses; none without a stack", async () => {
    world({
      before: {
        status: 'CREATE_COMPLETE',
        nested: { vpc: 'CREATE_COMPLETE' },
        events: [
          stackEv('CREATE_IN_PROGRESS', 1, 'User Initiated'),
          nestedEv('vpc', 'CREATE_IN_PROGRESS', 2),
          childSelf('vpc', 'CREATE_IN_PROGRESS', 3),
          ev('vpc', 'Vpc', 'AWS::EC2::VPC', 'CREATE_COMPLETE', 9),
          nestedEv('vpc', 'CREATE_COMPLETE', 11),
          stackEv('CREATE_COMPLETE', 12),
        ],
      },
    });
    const events = await stackAndNestedEvents(c, STACK);
    // the child's events about itself repeat the parent's of its nested stack: left out
    expect(events.map(line)).toEqual([
      `${STACK} CREATE_COMPLETE`,
      'vpc CREATE_COMPLETE',
      'vpc/Vpc CREATE_COMPLETE',
      'vpc CREATE_IN_PROGRESS',
      `${STACK} CREATE_IN_PROGRESS User Initiated`,
    ]);
    expect(events[0]).toEqual({
      eventId: expect.stringMatching(/-a8b9-11ef-/),
      timestamp: '2026-11-22T10:00:12.000Z',
      logicalResourceId: STACK,
      resourceType: 'AWS::CloudFormation::Stack',
      resourceStatus: 'CREATE_COMPLETE',
      statusReason: null,
    });
    expect((await nestedStacks(c, STACK)).map((n) => [n.name, n.status])).toEqual([['vpc', 'CREATE_COMPLETE']]);
    cfn.reset();
    world({});
    expect(await nestedStacks(c, STACK)).toEqual([]);
    expect(await stackAndNestedEvents(c, STACK)).toEqual([]);
  });
});
