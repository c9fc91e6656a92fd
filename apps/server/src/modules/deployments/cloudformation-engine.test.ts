import { describe, it, expect, beforeEach, afterAll } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mockClient } from 'aws-sdk-client-mock';
import {
  CloudFormationClient,
  CreateStackCommand,
  UpdateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  ListStacksCommand,
  type StackEvent,
  type Stack,
  type ResourceStatus,
  type StackStatus,
} from '@aws-sdk/client-cloudformation';
import { S3Client, HeadBucketCommand, CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { buildParentTemplate, errorLogsByResource } from '../../integrations/cloudformation/index.js';
import type { StageRow } from '../stages/stages.store.js';
import { createCloudFormationEngine, stackNameOf } from './cloudformation-engine.js';
import { EngineFailure, type EngineRun } from './engine.js';

/** CloudFormation through SDK stubs answering in the API's real response shapes (DESIGN §7). */
const cfn = mockClient(CloudFormationClient);
const s3 = mockClient(S3Client);
afterAll(() => {
  cfn.restore();
  s3.restore();
  fs.rmSync(dir, { recursive: true, force: true });
});

const stage = {
  id: '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b',
  projectId: 'p',
  name: 'shop',
  status: 'NOT_DEPLOYED',
  iacTool: 'cloudformation',
  cloudProvider: 'aws',
  awsAccountId: '123456789012',
  awsRegion: 'eu-west-1',
} as unknown as StageRow;
const STACK = stackNameOf(stage);
const STACK_ID = `arn:aws:cloudformation:eu-west-1:123456789012:stack/${STACK}/1f2e3d4c-0000-11ef-9a3b-0a1b2c3d4e5f`;
const CREDS = { AWS_ACCESS_KEY_ID: 'ASIAROLE', AWS_SECRET_ACCESS_KEY: 'role-secret', AWS_SESSION_TOKEN: 'role-token' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-cfn-'));
fs.writeFileSync(
  path.join(dir, 'vpc.yaml'),
  'Resources:\n  Vpc:\n    Type: AWS::EC2::VPC\n    Properties: { CidrBlock: 10.0.0.0/16 }\nOutputs:\n  VpcId: { Value: !Ref Vpc }\n',
);
fs.writeFileSync(path.join(dir, 'app.yaml'), 'Parameters:\n  VpcId: { Type: String }\n  Size: { Type: String }\nResources: {}\n');

const event = (id: string, logical: string, type: string, status: string, reason?: string, at = '2026-11-22T10:00:00.000Z'): StackEvent => ({
  StackId: STACK_ID,
  EventId: id,
  StackName: STACK,
  LogicalResourceId: logical,
  PhysicalResourceId: '',
  ResourceType: type,
  Timestamp: new Date(at),
  ResourceStatus: status as ResourceStatus,
  ...(reason ? { ResourceStatusReason: reason } : {}),
});
const stack = (status: string, outputs: { OutputKey: string; OutputValue: string }[] = []): { Stacks: Stack[] } => ({
  Stacks: [{ StackId: STACK_ID, StackName: STACK, CreationTime: new Date('2026-11-22T10:00:00Z'), StackStatus: status as StackStatus, Outputs: outputs }],
});

function run(abort = new AbortController()): EngineRun & { lines: string[]; statuses: string[] } {
  const lines: string[] = [];
  const statuses: string[] = [];
  return {
    stage,
    credentials: CREDS,
    signal: abort.signal,
    lines,
    statuses,
    log: (l) => lines.push(l),
    onStatus: async (s) => void statuses.push(s),
    resources: [
      {
        name: 'vpc',
        componentId: 'c1',
        componentName: 'Vpc',
        versionId: 'b1',
        version: 'aaaaaaa',
        dir,
        template: 'vpc.yaml',
        inputs: [],
        outputs: [{ name: 'VpcId', sensitive: false }],
      },
      {
        name: 'app',
        componentId: 'c2',
        componentName: 'App',
        versionId: 'b2',
        version: 'bbbbbbb',
        dir,
        template: 'app.yaml',
        inputs: [
          { key: 'VpcId', value: 'vpc.VpcId', reference: true, sensitive: false },
          { key: 'Size', value: 2, reference: false, sensitive: false },
        ],
        outputs: [],
      },
    ],
  };
}
const engine = createCloudFormationEngine({ credentialsFor: async () => CREDS, pollMs: 1 });

beforeEach(() => {
  cfn.reset();
  s3.reset();
  s3.on(HeadBucketCommand).rejects(Object.assign(new Error('NotFound'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } }));
  s3.on(CreateBucketCommand).resolves({ Location: 'http://gantry-templates-123456789012-eu-west-1.s3.amazonaws.com/' });
  s3.on(PutObjectCommand).resolves({ ETag: '"9b2cf535f27731c974343645a3985328"' });
});

describe('parent template', () => {
  it("makes each resource a nested stack, references GetAtt of the other stack's outputs, tagged with the environment", () => {
    const doc = JSON.parse(
      buildParentTemplate(
        [
          { name: 'vpc', templateBody: '', parameters: [] },
          {
            name: 'app',
            templateBody: '',
            parameters: [
              { key: 'VpcId', value: 'vpc.VpcId', reference: true },
              { key: 'Size', value: 2, reference: false },
            ],
          },
        ],
        { templateUrl: (n) => `https://b.s3.eu-west-1.amazonaws.com/${n}.template`, tags: { 'gantry:environment': stage.id } },
      ).body,
    );
    expect(doc.Resources.app).toEqual({
      Type: 'AWS::CloudFormation::Stack',
      Properties: {
        TemplateURL: 'https://b.s3.eu-west-1.amazonaws.com/app.template',
        Parameters: { VpcId: { 'Fn::GetAtt': ['vpc', 'Outputs.VpcId'] }, Size: '2' },
        Tags: [{ Key: 'gantry:environment', Value: stage.id }],
      },
    });
    expect(() =>
      buildParentTemplate([{ name: 'app', templateBody: '', parameters: [{ key: 'VpcId', value: 'ghost.VpcId', reference: true }] }], {
        templateUrl: () => '',
        tags: {},
      }),
    ).toThrow('app.VpcId refers to ghost.VpcId, which is no resource output of this environment');
  });

  it('groups failure events per resource', () => {
    expect(
      errorLogsByResource(
        [
          { resource: null, event: event('e1', 'app', 'AWS::CloudFormation::Stack', 'CREATE_FAILED', 'Embedded stack was not successfully created') },
          { resource: null, event: event('e2', 'vpc', 'AWS::CloudFormation::Stack', 'CREATE_COMPLETE') },
        ],
        'gantry-shop',
      ),
    ).toEqual({
      app: {
        errorMessages: [{ logicalResourceId: 'app', resourceType: 'AWS::CloudFormation::Stack', statusReason: 'Embedded stack was not successfully created' }],
      },
    });
  });
});

describe('CloudFormation engine', () => {
  it('uploads the nested templates, creates the stack and follows it to CREATE_COMPLETE with its events', async () => {
    cfn
      .on(DescribeStacksCommand)
      .rejectsOnce(new Error(`Stack with id ${STACK} does not exist`))
      .resolvesOnce(stack('CREATE_IN_PROGRESS'))
      .resolves(stack('CREATE_COMPLETE'));
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });
    cfn
      .on(DescribeStackEventsCommand)
      .rejectsOnce(new Error(`Stack with id ${STACK} does not exist`))
      .resolvesOnce({ StackEvents: [event('e1', STACK, 'AWS::CloudFormation::Stack', 'CREATE_IN_PROGRESS', 'User Initiated')] })
      .resolves({
        StackEvents: [
          event('e2', STACK, 'AWS::CloudFormation::Stack', 'CREATE_COMPLETE', undefined, '2026-11-22T10:03:00.000Z'),
          event('e1', STACK, 'AWS::CloudFormation::Stack', 'CREATE_IN_PROGRESS', 'User Initiated'),
        ],
      });
    const r = run();
    expect(await engine.deploy(r)).toEqual({ status: 'CREATE_COMPLETE', logs: {} });
    // the end is written by the run itself, with its logs (not told while the run still holds the environment)
    expect(r.statuses).toEqual(['CREATE_IN_PROGRESS']);
    expect(r.lines.filter((l) => l.includes(STACK))).toEqual([
      `2026-11-22T10:00:00.000Z ${STACK} AWS::CloudFormation::Stack CREATE_IN_PROGRESS — User Initiated`,
      `2026-11-22T10:03:00.000Z ${STACK} AWS::CloudFormation::Stack CREATE_COMPLETE`,
    ]);
    expect(s3.commandCalls(CreateBucketCommand)[0]!.args[0].input).toEqual({
      Bucket: 'gantry-templates-123456789012-eu-west-1',
      CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' },
    });
    const puts = s3.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(puts.map((p) => p.Key!.split('/').pop())).toEqual(['vpc.template', 'app.template']);
    expect(puts[0]!.Body).toContain('AWS::EC2::VPC');
    const created = cfn.commandCalls(CreateStackCommand)[0]!.args[0].input;
    expect(created).toMatchObject({
      StackName: STACK,
      Capabilities: ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'],
      Tags: [{ Key: 'gantry:environment', Value: stage.id }],
    });
    expect(JSON.parse(created.TemplateBody!).Resources.app.Properties.Parameters.VpcId).toEqual({ 'Fn::GetAtt': ['vpc', 'Outputs.VpcId'] });
    // the assumed role's credentials, not Gantry's own
    expect(await cfn.commandCalls(CreateStackCommand)[0]!.thisValue.config.credentials()).toMatchObject({
      accessKeyId: 'ASIAROLE',
      secretAccessKey: 'role-secret',
      sessionToken: 'role-token',
    });
  });

  it('refuses a bad reference, a bad template or a bad name before it sends anything: no bucket, no upload, no stack', async () => {
    const bad: [string, (r: ReturnType<typeof run>) => void, RegExp][] = [
      [
        'a reference to an output the resource does not have',
        (r) => void (r.resources[1]!.inputs[0]!.value = 'vpc.Nope'),
        /vpc has no \(unconditional\) output Nope/,
      ],
      ['a reference to no resource', (r) => void (r.resources[1]!.inputs[0]!.value = 'db.Url'), /no resource output of this environment/],
      ['a template that does not parse', (r) => void (r.resources[0]!.template = 'broken.yaml'), /template of vpc/],
      ['a name no nested stack can have', (r) => void (r.resources[0]!.name = 'my-vpc'), /cannot name a nested stack/],
    ];
    fs.writeFileSync(path.join(dir, 'broken.yaml'), 'Resources: [\n');
    for (const [what, spoil, message] of bad) {
      const r = run();
      spoil(r);
      await expect(engine.deploy(r), what).rejects.toThrow(message);
      expect(
        s3.calls().map((c) => c.args[0].constructor.name),
        what,
      ).toEqual([]);
      expect(cfn.calls(), what).toHaveLength(0);
      expect(
        r.lines.filter((l) => l.includes('uploading')),
        what,
      ).toEqual([]);
    }
  });

  it('passes a sensitive input as a NoEcho parameter of the parent stack, never in the template', async () => {
    cfn
      .on(DescribeStacksCommand)
      .rejectsOnce(new Error(`Stack with id ${STACK} does not exist`))
      .resolves(stack('CREATE_COMPLETE'));
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });
    cfn.on(DescribeStackEventsCommand).resolves({ StackEvents: [] });
    const r = run();
    r.resources[1]!.inputs.push({ key: 'Token', value: 'tok-s3cr3t-42', reference: false, sensitive: true });
    expect(await engine.deploy(r)).toEqual({ status: 'CREATE_COMPLETE', logs: {} });
    const created = cfn.commandCalls(CreateStackCommand)[0]!.args[0].input;
    expect(created.TemplateBody).not.toContain('tok-s3cr3t-42');
    expect(JSON.parse(created.TemplateBody!).Resources.app.Properties.Parameters.Token).toEqual({ Ref: 'appToken' });
    expect(JSON.parse(created.TemplateBody!).Parameters.appToken).toMatchObject({ Type: 'String', NoEcho: true });
    expect(created.Parameters).toEqual([{ ParameterKey: 'appToken', ParameterValue: 'tok-s3cr3t-42' }]);
  });

  it('treats "No updates are to be performed" as success', async () => {
    s3.on(HeadBucketCommand).resolves({});
    cfn.on(DescribeStacksCommand).resolves(stack('UPDATE_COMPLETE'));
    cfn.on(UpdateStackCommand).rejects(Object.assign(new Error('No updates are to be performed.'), { name: 'ValidationError' }));
    const r = run();
    expect(await engine.deploy(r)).toEqual({ status: 'UPDATE_COMPLETE' });
    expect(r.lines).toContain('[gantry] No updates are to be performed.');
    expect(s3.commandCalls(CreateBucketCommand)).toHaveLength(0);
  });

  it('a failed create ends as ROLLBACK_COMPLETE with the error events per resource', async () => {
    cfn
      .on(DescribeStacksCommand)
      .rejectsOnce(new Error(`Stack with id ${STACK} does not exist`))
      .resolves(stack('ROLLBACK_COMPLETE'));
    cfn.on(CreateStackCommand).resolves({ StackId: STACK_ID });
    cfn
      .on(DescribeStackEventsCommand)
      .rejectsOnce(new Error(`Stack with id ${STACK} does not exist`))
      .resolves({
        StackEvents: [
          event('e3', STACK, 'AWS::CloudFormation::Stack', 'ROLLBACK_COMPLETE'),
          event(
            'e2',
            'app',
            'AWS::CloudFormation::Stack',
            'CREATE_FAILED',
            'Embedded stack arn:aws:cloudformation:eu-west-1:123456789012:stack/app was not successfully created: Parameter Size failed to satisfy constraint',
          ),
        ],
      });
    const failure = await engine.deploy(run()).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EngineFailure);
    expect((failure as EngineFailure).status).toBe('ROLLBACK_COMPLETE');
    expect((failure as EngineFailure).logs.app!.errorMessages[0]!.statusReason).toMatch(/Parameter Size failed to satisfy constraint/);
  });

  it('cancel rolls an update back', async () => {
    s3.on(HeadBucketCommand).resolves({});
    const abort = new AbortController();
    cfn.on(DescribeStacksCommand).resolves(stack('UPDATE_IN_PROGRESS'));
    cfn.on(UpdateStackCommand).callsFake(() => {
      setTimeout(() => abort.abort(), 5);
      return { StackId: STACK_ID };
    });
    cfn.on(DescribeStackEventsCommand).resolves({ StackEvents: [] });
    cfn.on(CancelUpdateStackCommand).callsFake(() => {
      cfn.on(DescribeStacksCommand).resolves(stack('UPDATE_ROLLBACK_COMPLETE'));
      return {};
    });
    const failure = await engine.deploy(run(abort)).catch((e: unknown) => e);
    expect(cfn.commandCalls(CancelUpdateStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK });
    expect(failure).toBeInstanceOf(EngineFailure);
    expect((failure as EngineFailure).message).toBe('Deployment cancelled');
    expect((failure as EngineFailure).status).toBe('UPDATE_ROLLBACK_COMPLETE');
  });

  it('a cancel CloudFormation can no longer act on (the update done, cleaning up; a delete) leaves the run to its end, no cancelled run', async () => {
    s3.on(HeadBucketCommand).resolves({});
    let status = 'UPDATE_COMPLETE';
    let abort = new AbortController();
    cfn.on(DescribeStacksCommand).callsFake(() => stack(status));
    cfn.on(DescribeStackEventsCommand).resolves({ StackEvents: [] });
    cfn.on(UpdateStackCommand).callsFake(() => {
      status = 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS';
      setTimeout(() => abort.abort(), 5);
      setTimeout(() => (status = 'UPDATE_COMPLETE'), 40);
      return { StackId: STACK_ID };
    });
    const r = run(abort);
    expect(await engine.deploy(r)).toEqual({ status: 'UPDATE_COMPLETE', logs: {} });
    expect(cfn.commandCalls(CancelUpdateStackCommand)).toHaveLength(0);
    expect(r.lines).toContain('[gantry] The stack reached UPDATE_COMPLETE before it could be cancelled: nothing was cancelled');

    abort = new AbortController();
    cfn.on(DeleteStackCommand).callsFake(() => {
      status = 'DELETE_IN_PROGRESS';
      setTimeout(() => abort.abort(), 5);
      setTimeout(() => (status = 'DELETE_COMPLETE'), 40);
      return {};
    });
    expect(await engine.undeploy(run(abort))).toEqual({ status: 'DELETE_COMPLETE', logs: {} });
  });

  it('cancel deletes a stack being created (a create cannot be cancelled), followed by its id to DELETE_COMPLETE', async () => {
    const abort = new AbortController();
    cfn
      .on(DescribeStacksCommand, { StackName: STACK })
      .rejectsOnce(new Error(`Stack with id ${STACK} does not exist`))
      .resolves(stack('CREATE_IN_PROGRESS'));
    cfn.on(DescribeStacksCommand, { StackName: STACK_ID }).resolves(stack('CREATE_IN_PROGRESS'));
    cfn.on(CreateStackCommand).callsFake(() => {
      setTimeout(() => abort.abort(), 5);
      return { StackId: STACK_ID };
    });
    cfn.on(DescribeStackEventsCommand).resolves({ StackEvents: [] });
    cfn.on(DeleteStackCommand).callsFake(() => {
      // deleted, the stack answers only by its id
      cfn.on(DescribeStacksCommand, { StackName: STACK }).rejects(new Error(`Stack with id ${STACK} does not exist`));
      cfn.on(DescribeStacksCommand, { StackName: STACK_ID }).resolves(stack('DELETE_COMPLETE'));
      return {};
    });
    const failure = await engine.deploy(run(abort)).catch((e: unknown) => e);
    expect(cfn.commandCalls(DeleteStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK });
    expect(cfn.commandCalls(CancelUpdateStackCommand)).toHaveLength(0);
    expect(failure).toBeInstanceOf(EngineFailure);
    expect((failure as EngineFailure).message).toBe('Deployment cancelled');
    expect((failure as EngineFailure).status).toBe('DELETE_COMPLETE');
  });

  it('undeploys the stack, reads outputs per nested stack, lists events and continues a rollback', async () => {
    cfn.on(DescribeStacksCommand, { StackName: STACK }).resolves(stack('UPDATE_COMPLETE'));
    // followed by its id: a deleted stack answers only by it
    cfn.on(DescribeStacksCommand, { StackName: STACK_ID }).resolvesOnce(stack('DELETE_IN_PROGRESS')).resolves(stack('DELETE_COMPLETE'));
    cfn.on(DeleteStackCommand).resolves({});
    cfn.on(DescribeStackEventsCommand).resolves({ StackEvents: [] });
    expect(await engine.undeploy(run())).toEqual({ status: 'DELETE_COMPLETE', logs: {} });
    expect(cfn.commandCalls(DeleteStackCommand)).toHaveLength(1);

    cfn.reset();
    cfn.on(DescribeStackResourcesCommand).resolves({
      StackResources: [
        {
          StackName: STACK,
          StackId: STACK_ID,
          LogicalResourceId: 'vpc',
          PhysicalResourceId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/shop-vpc-1/abc',
          ResourceType: 'AWS::CloudFormation::Stack',
          Timestamp: new Date(),
          ResourceStatus: 'CREATE_COMPLETE' as ResourceStatus,
        },
        {
          StackName: STACK,
          StackId: STACK_ID,
          LogicalResourceId: 'app',
          PhysicalResourceId: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/shop-app-1/def',
          ResourceType: 'AWS::CloudFormation::Stack',
          Timestamp: new Date(),
          ResourceStatus: 'CREATE_FAILED' as ResourceStatus,
        },
      ],
    });
    cfn
      .on(DescribeStacksCommand, { StackName: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/shop-vpc-1/abc' })
      .resolves(stack('CREATE_COMPLETE', [{ OutputKey: 'VpcId', OutputValue: 'vpc-0a1b2c3d' }]));
    cfn.on(DescribeStacksCommand, { StackName: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/shop-app-1/def' }).resolves(stack('ROLLBACK_COMPLETE'));
    expect(await engine.outputs(stage)).toEqual({ vpc: [{ key: 'VpcId', value: 'vpc-0a1b2c3d', sensitive: false }], app: [] });
    expect(await engine.deployedResources(stage)).toEqual(['vpc']);
    cfn.on(DescribeStackEventsCommand, { StackName: STACK }).resolves({ StackEvents: [event('e9', 'vpc', 'AWS::CloudFormation::Stack', 'CREATE_COMPLETE')] });
    cfn
      .on(DescribeStackEventsCommand, { StackName: 'arn:aws:cloudformation:eu-west-1:123456789012:stack/shop-vpc-1/abc' })
      .resolves({ StackEvents: [event('e8', 'Vpc', 'AWS::EC2::VPC', 'CREATE_COMPLETE', undefined, '2026-11-22T09:59:00.000Z')] });
    // newest first, a nested stack's own events named by their resource
    expect(await engine.events!(stage)).toEqual([
      {
        eventId: 'e9',
        timestamp: '2026-11-22T10:00:00.000Z',
        logicalResourceId: 'vpc',
        resourceType: 'AWS::CloudFormation::Stack',
        resourceStatus: 'CREATE_COMPLETE',
        statusReason: null,
      },
      {
        eventId: 'e8',
        timestamp: '2026-11-22T09:59:00.000Z',
        logicalResourceId: 'vpc/Vpc',
        resourceType: 'AWS::EC2::VPC',
        resourceStatus: 'CREATE_COMPLETE',
        statusReason: null,
      },
    ]);
    cfn.on(ContinueUpdateRollbackCommand).resolves({});
    await engine.continueRollback!(stage);
    expect(cfn.commandCalls(ContinueUpdateRollbackCommand)[0]!.args[0].input).toEqual({ StackName: STACK });
  });

  it("an undeployed environment's events are its deleted stack's, read by its id (its name no longer answers)", async () => {
    cfn.reset();
    cfn.on(DescribeStacksCommand, { StackName: STACK }).rejects(new Error(`Stack with id ${STACK} does not exist`));
    const older = STACK_ID.replace('1f2e3d4c', '0a0a0a0a');
    cfn.on(ListStacksCommand).resolves({
      StackSummaries: [
        {
          StackId: older,
          StackName: STACK,
          CreationTime: new Date('2026-11-01T10:00:00Z'),
          DeletionTime: new Date('2026-11-02T10:00:00Z'),
          StackStatus: 'DELETE_COMPLETE',
        },
        {
          StackId: STACK_ID,
          StackName: STACK,
          CreationTime: new Date('2026-11-22T10:00:00Z'),
          DeletionTime: new Date('2026-11-22T11:00:00Z'),
          StackStatus: 'DELETE_COMPLETE',
        },
        // its nested stack, deleted with it; another environment's stack
        {
          StackId: `${STACK_ID}-net`,
          StackName: `${STACK}-net-X1`,
          ParentId: STACK_ID,
          CreationTime: new Date('2026-11-22T10:00:00Z'),
          StackStatus: 'DELETE_COMPLETE',
        },
        { StackId: 'arn:other', StackName: 'gantry-other-12345678', CreationTime: new Date('2026-11-23T10:00:00Z'), StackStatus: 'DELETE_COMPLETE' },
      ],
    });
    cfn.on(DescribeStackResourcesCommand).resolves({ StackResources: [] });
    cfn.on(DescribeStackEventsCommand, { StackName: STACK }).rejects(new Error(`Stack [${STACK}] does not exist`));
    cfn
      .on(DescribeStackEventsCommand, { StackName: STACK_ID })
      .resolves({ StackEvents: [event('e20', STACK, 'AWS::CloudFormation::Stack', 'DELETE_COMPLETE', undefined, '2026-11-22T11:00:00.000Z')] });
    expect((await engine.events!(stage)).map((e) => [e.eventId, e.logicalResourceId, e.resourceStatus])).toEqual([['e20', STACK, 'DELETE_COMPLETE']]);
    expect(cfn.commandCalls(ListStacksCommand)[0]!.args[0].input).toEqual({ StackStatusFilter: ['DELETE_COMPLETE'] });
  });
});
