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
import { createCloudFormationAdapter, stackNameFor, PollingAborted, TemplateError, type NestedResource, type StackEventView } from './index.js';

/**
 * CloudFormation and S3 as SDK stubs answering in the APIs' real response shapes (DESIGN §7): a
 * small scripted stack whose every DescribeStacks moves one frame on, its events accumulating
 * (DescribeStackEvents answers newest first), nested stacks with their own events.
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
const STACK = stackNameFor('shop', STAGE);
const STACK_ID = `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${STACK}/1f2e3d4c-a8b9-11ef-9b7a-0a1b2c3d4e5f`;
const CHILD = (r: string) => `arn:aws:cloudformation:${REGION}:${ACCOUNT}:stack/${STACK}-${r}-1K2EXAMPLE3M/2a3b4c5d-a8b9-11ef-8d1e-06c1f0a2b3c4`;
const ENV_CREDS = { AWS_ACCESS_KEY_ID: 'ASIAROLEEXAMPLE', AWS_SECRET_ACCESS_KEY: 'role-secret', AWS_SESSION_TOKEN: 'role-token' };
const target = { stackName: STACK, region: REGION, credentials: ENV_CREDS };
const BUCKET = `gantry-templates-${ACCOUNT}-${REGION}`;

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
  {
    name: 'app',
    templateBody: APP_T,
    parameters: [
      { key: 'VpcId', value: 'vpc.VpcId', reference: true },
      { key: 'Size', value: 2, reference: false },
      { key: 'Token', value: 'tok-123', reference: false, sensitive: true },
    ],
  },
];
const adapter = createCloudFormationAdapter({ pollMs: 1 });

function follower() {
  const statuses: string[] = [];
  const batches: StackEventView[][] = [];
  return { statuses, batches, onStatus: (s: string) => void statuses.push(s), onEvents: (e: StackEventView[]) => void batches.push(e) };
}
const deployInput = (f = follower(), extra = {}) => ({
  ...target,
  awsAccountId: ACCOUNT,
  stageId: STAGE,
  deploymentId: 'dep-1',
  resources: RESOURCES,
  ...f,
  ...extra,
});
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

describe('deploy', () => {
  it('uploads the nested templates to a new bucket, creates the stack and follows it and its nested stacks to CREATE_COMPLETE', async () => {
    world({ ops: { CreateStack: CREATE } });
    const f = follower();
    expect(await adapter.deploy(deployInput(f))).toEqual({
      status: 'CREATE_COMPLETE',
      succeeded: true,
      changed: true,
      resources: { vpc: 'CREATE_COMPLETE', app: 'CREATE_COMPLETE' },
      logs: {},
    });
    expect(f.statuses).toEqual(['CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    // each event once, oldest first, nested ones under their resource; a child's events about itself are left out
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

    expect(s3.commandCalls(CreateBucketCommand).map((c) => c.args[0].input)).toEqual([
      { Bucket: BUCKET, CreateBucketConfiguration: { LocationConstraint: REGION } },
    ]);
    expect(s3.commandCalls(PutBucketLifecycleConfigurationCommand)[0]!.args[0].input).toEqual({
      Bucket: BUCKET,
      LifecycleConfiguration: { Rules: [{ ID: 'gantry-expire-templates', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 30 } }] },
    });
    const puts = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(puts.map((p) => [p.Bucket, p.Key])).toEqual([
      [BUCKET, `${STAGE}/dep-1/vpc.template`],
      [BUCKET, `${STAGE}/dep-1/app.template`],
    ]);
    expect(puts[1]!.Body).toBe(APP_T);

    const created = cfn.commandCalls(CreateStackCommand)[0]!.args[0].input;
    expect(created).toMatchObject({
      StackName: STACK,
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      Tags: [{ Key: 'gantry:environment', Value: STAGE }],
      Parameters: [{ ParameterKey: 'appToken', ParameterValue: 'tok-123' }],
    });
    const parent = JSON.parse(created.TemplateBody!);
    expect(parent.Resources.vpc.Properties.TemplateURL).toBe(`https://${BUCKET}.s3.${REGION}.amazonaws.com/${STAGE}/dep-1/vpc.template`);
    expect(parent.Resources.app.Properties.Parameters).toEqual({ VpcId: { 'Fn::GetAtt': ['vpc', 'Outputs.VpcId'] }, Size: '2', Token: { Ref: 'appToken' } });
    expect(Object.keys(parent.Outputs)).toEqual(['vpcVpcId', 'appServiceName']);
    expect(created.TemplateBody).not.toContain('tok-123');
  });

  it("makes its clients with the credentials and region it is given (either form), not Gantry's own", async () => {
    world({ before: { status: 'CREATE_COMPLETE' } });
    await adapter.status(target);
    const client = cfn.commandCalls(DescribeStacksCommand)[0]!.thisValue as CloudFormationClient;
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'ASIAROLEEXAMPLE', secretAccessKey: 'role-secret', sessionToken: 'role-token' });
    expect(await client.config.region()).toBe(REGION);
    expect(client.config.endpoint).toBeUndefined(); // endpoints stay with the SDK's chain

    cfn.resetHistory();
    await adapter.status({ ...target, region: 'us-east-1', credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'plain-secret' } });
    const other = cfn.commandCalls(DescribeStacksCommand)[0]!.thisValue as CloudFormationClient;
    const plain = await other.config.credentials();
    expect(plain).toMatchObject({ accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'plain-secret' });
    expect(plain.sessionToken).toBeUndefined();
    expect(await other.config.region()).toBe('us-east-1');
    await expect(adapter.status({ ...target, credentials: { AWS_ACCESS_KEY_ID: 'x' } })).rejects.toThrow(
      'AWS credentials need an access key id and a secret access key',
    );

    world({ ops: { CreateStack: CREATE } });
    await adapter.deploy(deployInput());
    const s3client = s3.commandCalls(PutObjectCommand)[0]!.thisValue as S3Client;
    expect(await s3client.config.credentials()).toMatchObject({ accessKeyId: 'ASIAROLEEXAMPLE', sessionToken: 'role-token' });
    expect(await s3client.config.region()).toBe(REGION);
  });

  it('uses the bucket that exists, and in us-east-1 creates one without a location constraint', async () => {
    s3.on(HeadBucketCommand).resolves({ BucketRegion: REGION, AccessPointAlias: false, $metadata: { httpStatusCode: 200 } });
    world({ ops: { CreateStack: CREATE } });
    await adapter.deploy(deployInput());
    expect(s3.commandCalls(CreateBucketCommand)).toHaveLength(0);
    expect(s3.commandCalls(PutBucketLifecycleConfigurationCommand)).toHaveLength(0);

    s3.on(HeadBucketCommand).rejects(new NotFound({ $metadata: { httpStatusCode: 404 }, message: 'UnknownError' }));
    world({ ops: { CreateStack: CREATE } });
    await adapter.deploy(deployInput(follower(), { region: 'us-east-1' }));
    expect(s3.commandCalls(CreateBucketCommand)[0]!.args[0].input).toEqual({ Bucket: `gantry-templates-${ACCOUNT}-us-east-1` });

    s3.on(HeadBucketCommand).rejects(
      new S3ServiceException({ name: 'Forbidden', $fault: 'client', $metadata: { httpStatusCode: 403 }, message: 'UnknownError' }),
    );
    await expect(adapter.deploy(deployInput())).rejects.toMatchObject({ name: 'Forbidden' });
  });

  it('treats "No updates are to be performed." as success, streaming nothing', async () => {
    s3.on(HeadBucketCommand).resolves({ BucketRegion: REGION, $metadata: { httpStatusCode: 200 } });
    world({
      before: { status: 'UPDATE_COMPLETE', events: [stackEv('UPDATE_COMPLETE', 1)], nested: { vpc: 'CREATE_COMPLETE', app: 'UPDATE_COMPLETE' } },
      ops: { UpdateStack: 'no-updates' },
    });
    const f = follower();
    expect(await adapter.deploy(deployInput(f))).toEqual({
      status: 'UPDATE_COMPLETE',
      succeeded: true,
      changed: false,
      resources: { vpc: 'CREATE_COMPLETE', app: 'UPDATE_COMPLETE' },
      logs: {},
    });
    expect(cfn.commandCalls(UpdateStackCommand)[0]!.args[0].input.StackName).toBe(STACK);
    expect(cfn.commandCalls(CreateStackCommand)).toHaveLength(0);
    expect(f.batches).toEqual([]);
  });

  it("updates, telling only this update's events (not the stack's or its nested stacks' history)", async () => {
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
    expect(await adapter.deploy(deployInput(f))).toMatchObject({ status: 'UPDATE_COMPLETE', succeeded: true, changed: true });
    expect(f.statuses).toEqual(['UPDATE_IN_PROGRESS', 'UPDATE_COMPLETE']);
    expect(f.batches.flat().map(line)).toEqual([
      `${STACK} UPDATE_IN_PROGRESS User Initiated`,
      'app UPDATE_IN_PROGRESS',
      'app/Service UPDATE_COMPLETE',
      'app UPDATE_COMPLETE',
      `${STACK} UPDATE_COMPLETE`,
    ]);
    expect(cfn.commandCalls(UpdateStackCommand)[0]!.args[0].input.Parameters).toEqual([{ ParameterKey: 'appToken', ParameterValue: 'tok-123' }]);
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
    const out = await adapter.deploy(deployInput(f));
    expect(out).toMatchObject({ status: 'ROLLBACK_COMPLETE', succeeded: false, changed: true, resources: { vpc: 'DELETE_COMPLETE', app: 'DELETE_COMPLETE' } });
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
    const out = await adapter.deploy(deployInput());
    expect(out).toMatchObject({ status: 'ROLLBACK_FAILED', succeeded: false, resources: { vpc: 'DELETE_FAILED', app: 'CREATE_FAILED' } });
    expect(out.logs.vpc!.errorMessages.map((m) => m.logicalResourceId)).toEqual(['Vpc', 'vpc']);
    expect(out.logs.vpc!.errorMessages[0]!.statusReason).toBe(reason);
  });

  it('deletes a stack left in ROLLBACK_COMPLETE by a failed first create, then creates it anew', async () => {
    world({
      before: { status: 'ROLLBACK_COMPLETE', events: [stackEv('ROLLBACK_COMPLETE', 1)] },
      ops: {
        DeleteStack: [
          { status: 'DELETE_IN_PROGRESS', events: [stackEv('DELETE_IN_PROGRESS', 10, 'User Initiated')] },
          { status: 'DELETE_COMPLETE', events: [stackEv('DELETE_COMPLETE', 12)] },
        ],
        CreateStack: CREATE,
      },
    });
    const f = follower();
    expect(await adapter.deploy(deployInput(f))).toMatchObject({ status: 'CREATE_COMPLETE', succeeded: true, changed: true });
    expect(f.statuses).toEqual(['DELETE_IN_PROGRESS', 'DELETE_COMPLETE', 'CREATE_IN_PROGRESS', 'CREATE_COMPLETE']);
    expect(cfn.commandCalls(DeleteStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK });
    expect(cfn.commandCalls(UpdateStackCommand)).toHaveLength(0);
  });

  it('an aborted signal stops following (PollingAborted) and leaves the stack alone', async () => {
    world({ ops: { CreateStack: Array.from({ length: 1000 }, () => ({ status: 'CREATE_IN_PROGRESS' })) } });
    const abort = new AbortController();
    const failure = await adapter
      .deploy(deployInput({ ...follower(), onStatus: () => void setTimeout(() => abort.abort(), 5) }, { signal: abort.signal }))
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PollingAborted);
    expect(failure).toMatchObject({ name: 'AbortError', lastStatus: 'CREATE_IN_PROGRESS' });
    expect(cfn.commandCalls(DeleteStackCommand)).toHaveLength(0);
    expect(cfn.commandCalls(CancelUpdateStackCommand)).toHaveLength(0);
  });

  it('a create cancelled by the user (DeleteStack) is followed by its id to DELETE_COMPLETE, no success', async () => {
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
    const out = await adapter.deploy(
      deployInput({
        ...f,
        onStatus: (s: string) => {
          f.statuses.push(s);
          cancelled ??= adapter.cancel(target);
        },
      }),
    );
    expect(await cancelled).toEqual({ action: 'delete', status: 'CREATE_IN_PROGRESS' });
    expect(out).toEqual({ status: 'DELETE_COMPLETE', succeeded: false, changed: true, resources: {}, logs: {} });
    expect(f.statuses).toEqual(['CREATE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
    expect(f.batches.flat().map(line)).toEqual([`${STACK} DELETE_IN_PROGRESS User Initiated`, `${STACK} DELETE_COMPLETE`]);
  });

  it('refuses a bad reference before anything is uploaded or created', async () => {
    world({});
    const bad = [{ name: 'app', templateBody: APP_T, parameters: [{ key: 'VpcId', value: 'network.VpcId', reference: true }] }];
    await expect(adapter.deploy(deployInput(follower(), { resources: bad }))).rejects.toThrow(TemplateError);
    expect(s3.commandCalls(PutObjectCommand)).toHaveLength(0);
    expect(cfn.calls()).toHaveLength(0);
  });
});

describe('cancel, continue rollback, undeploy', () => {
  it('cancel: CancelUpdateStack for an update, DeleteStack for a create, nothing otherwise', async () => {
    world({ before: { status: 'UPDATE_IN_PROGRESS' }, ops: { CancelUpdateStack: [{ status: 'UPDATE_ROLLBACK_IN_PROGRESS' }] } });
    expect(await adapter.cancel(target)).toEqual({ action: 'cancel-update', status: 'UPDATE_IN_PROGRESS' });
    expect(cfn.commandCalls(CancelUpdateStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK });

    cfn.reset();
    world({ before: { status: 'CREATE_IN_PROGRESS' }, ops: { DeleteStack: [{ status: 'DELETE_IN_PROGRESS' }] } });
    expect(await adapter.cancel(target)).toEqual({ action: 'delete', status: 'CREATE_IN_PROGRESS' });
    expect(cfn.commandCalls(DeleteStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK });

    cfn.reset();
    world({ before: { status: 'UPDATE_COMPLETE' } });
    expect(await adapter.cancel(target)).toEqual({ action: 'none', status: 'UPDATE_COMPLETE' });
    cfn.reset();
    world({});
    expect(await adapter.cancel(target)).toEqual({ action: 'none', status: null });
    expect(cfn.commandCalls(CancelUpdateStackCommand)).toHaveLength(0);
    expect(cfn.commandCalls(DeleteStackCommand)).toHaveLength(0);
  });

  it('continue rollback: ContinueUpdateRollback, then watch follows it to UPDATE_ROLLBACK_COMPLETE', async () => {
    world({
      before: { status: 'UPDATE_ROLLBACK_FAILED', events: [stackEv('UPDATE_ROLLBACK_FAILED', 5, 'The following resource(s) failed to update: [app].')] },
      ops: {
        ContinueUpdateRollback: [
          { status: 'UPDATE_ROLLBACK_IN_PROGRESS', events: [stackEv('UPDATE_ROLLBACK_IN_PROGRESS', 10, 'User Initiated')] },
          { status: 'UPDATE_ROLLBACK_COMPLETE', events: [stackEv('UPDATE_ROLLBACK_COMPLETE', 20)] },
        ],
      },
    });
    await adapter.continueRollback({ ...target, resourcesToSkip: ['app.Service'] });
    expect(cfn.commandCalls(ContinueUpdateRollbackCommand)[0]!.args[0].input).toEqual({ StackName: STACK, ResourcesToSkip: ['app.Service'] });
    const f = follower();
    expect(await adapter.watch({ ...target, ...f })).toMatchObject({ status: 'UPDATE_ROLLBACK_COMPLETE', succeeded: true });
    expect(f.batches.flat().map(line)).toEqual([`${STACK} UPDATE_ROLLBACK_IN_PROGRESS User Initiated`, `${STACK} UPDATE_ROLLBACK_COMPLETE`]);
  });

  it('undeploy: DeleteStack, followed by stack id to DELETE_COMPLETE; no stack is already undeployed', async () => {
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
    expect(await adapter.undeploy({ ...target, ...f })).toEqual({
      status: 'DELETE_COMPLETE',
      succeeded: true,
      resources: { vpc: 'DELETE_COMPLETE' },
      logs: {},
    });
    expect(f.statuses).toEqual(['DELETE_IN_PROGRESS', 'DELETE_COMPLETE']);
    expect(f.batches.flat().map(line)).toEqual([
      `${STACK} DELETE_IN_PROGRESS User Initiated`,
      'vpc DELETE_IN_PROGRESS',
      'vpc/Vpc DELETE_COMPLETE',
      'vpc DELETE_COMPLETE',
      `${STACK} DELETE_COMPLETE`,
    ]);
    expect(
      cfn
        .commandCalls(DescribeStacksCommand)
        .slice(1)
        .every((c) => c.args[0].input.StackName === STACK_ID),
    ).toBe(true);

    cfn.reset();
    world({});
    expect(await adapter.undeploy(target)).toEqual({ status: 'DELETE_COMPLETE', succeeded: true, resources: {}, logs: {} });
    expect(cfn.commandCalls(DeleteStackCommand)).toHaveLength(0);
  });

  it('undeploy: DELETE_FAILED with its error events', async () => {
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
    const out = await adapter.undeploy(target);
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
  it("outputs per resource from the parent's re-exports", async () => {
    world({
      before: {
        status: 'UPDATE_COMPLETE',
        outputs: [
          { OutputKey: 'vpcVpcId', OutputValue: 'vpc-0a1b2c3d4e5f67890', Description: 'vpc.VpcId' },
          { OutputKey: 'vpcPublicSubnetIds', OutputValue: 'subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f', Description: 'vpc.PublicSubnetIds' },
          { OutputKey: 'appServiceName', OutputValue: 'shop-app-Service-1A2B3C', Description: 'app.ServiceName' },
          { OutputKey: 'Hand', OutputValue: 'made', Description: 'not a re-export' },
        ],
      },
    });
    expect(await adapter.outputs(target)).toEqual({
      vpc: [
        { key: 'VpcId', value: 'vpc-0a1b2c3d4e5f67890' },
        { key: 'PublicSubnetIds', value: 'subnet-0aaa1111bbbb2222c,subnet-0ddd3333eeee4444f' },
      ],
      app: [{ key: 'ServiceName', value: 'shop-app-Service-1A2B3C' }],
    });
    cfn.reset();
    world({});
    expect(await adapter.outputs(target)).toEqual({});
  });

  it("events of the stack and its nested stacks, newest first; status and nested stacks' statuses, or none without a stack", async () => {
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
    const events = await adapter.events(target);
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
    expect(await adapter.status(target)).toBe('CREATE_COMPLETE');
    expect(await adapter.resources(target)).toEqual({ vpc: 'CREATE_COMPLETE' });
    cfn.reset();
    world({});
    expect(await adapter.status(target)).toBeNull();
    expect(await adapter.resources(target)).toEqual({});
    expect(await adapter.events(target)).toEqual([]);
  });
});
