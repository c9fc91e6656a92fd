import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAwsStandin, type AwsStandin } from './index.js';

// Debian's awscli (botocore's own service models) reads every answer: a shape the real service
// would not send fails its parser. It runs as a child process, so the stand-in answers meanwhile.
const AWS = '/usr/bin/aws';
let s: AwsStandin;
const NOW = Date.parse('2026-11-20T12:00:00Z');

function aws(args: string[]): Promise<{ code: number; json: any; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      AWS,
      ['--endpoint-url', s.url, '--region', 'eu-west-1', '--output', 'json', ...args],
      {
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          HOME: '/tmp',
          AWS_ACCESS_KEY_ID: 'ASIAIOSFODNN7EXAMPLE',
          AWS_SECRET_ACCESS_KEY: 'secret',
          AWS_SESSION_TOKEN: 'token',
          AWS_PAGER: '',
        },
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, json: stdout.trim() ? JSON.parse(stdout) : null, stderr }),
    );
  });
}

beforeAll(async () => {
  s = await startAwsStandin({
    // a stack's resource takes 1.5 s, so that an update is still running when the next CLI call cancels it
    cfnStepMs: 1500,
    now: () => NOW,
    world: {
      instances: [
        {
          id: 'i-0a1b2c3d4e5f60001',
          region: 'eu-west-1',
          type: 't3.micro',
          state: 'running',
          tags: { Name: 'web', 'gantry:environment': 'stage-1' },
          volumes: [{ id: 'vol-0001', type: 'gp3', sizeGb: 20 }],
        },
        { id: 'i-0a1b2c3d4e5f60002', region: 'eu-west-1', type: 't3.small', state: 'stopped', tags: {}, volumes: [] },
        { id: 'i-0a1b2c3d4e5f60003', region: 'us-east-1', type: 't3.small', state: 'running', tags: {}, volumes: [] },
      ],
      asgs: [{ name: 'workers', region: 'eu-west-1', minSize: 1, maxSize: 4, desiredCapacity: 2, instanceType: 't3.micro', tags: { team: 'a' } }],
      lbs: [
        { name: 'old-web', region: 'eu-west-1', kind: 'classic', tags: {} },
        { name: 'api', region: 'eu-west-1', kind: 'application', tags: { 'gantry:environment': 'stage-1' } },
        { name: 'tcp', region: 'eu-west-1', kind: 'network', tags: {} },
      ],
      dbs: [
        {
          id: 'shop-db',
          region: 'eu-west-1',
          instanceClass: 'db.t3.micro',
          engine: 'postgres',
          status: 'available',
          storageGb: 20,
          storageType: 'gp2',
          tags: {},
        },
      ],
      metrics: [
        {
          region: 'eu-west-1',
          namespace: 'AWS/EC2',
          metricName: 'CPUUtilization',
          dimension: { name: 'InstanceId', value: 'i-0a1b2c3d4e5f60001' },
          daily: [3, 4.5, 50],
        },
      ],
      costs: [
        {
          date: '2026-10-03',
          account: '123456789012',
          service: 'Amazon Elastic Compute Cloud - Compute',
          environment: 'stage-1',
          region: 'eu-west-1',
          amount: 10.5,
        },
        { date: '2026-11-02', account: '123456789012', service: 'Amazon Relational Database Service', environment: '', amount: 4.25 },
      ],
    },
  });
});
afterAll(() => s.close());

// each CLI call starts a Python interpreter (seconds on a loaded machine)
describe('the AWS stand-in read by the AWS CLI', { timeout: 240_000 }, () => {
  it('EC2: instances with state and tags filtered by tag, stop/start, tags, volumes', async () => {
    const all = await aws(['ec2', 'describe-instances']);
    expect(all.code).toBe(0);
    expect(all.json.Reservations.flatMap((r: any) => r.Instances.map((i: any) => i.InstanceId))).toEqual(['i-0a1b2c3d4e5f60001', 'i-0a1b2c3d4e5f60002']);
    const tagged = await aws([
      'ec2',
      'describe-instances',
      '--filters',
      'Name=tag:gantry:environment,Values=stage-1',
      'Name=instance-state-name,Values=running',
    ]);
    const i = tagged.json.Reservations[0].Instances[0];
    expect(i).toMatchObject({ InstanceId: 'i-0a1b2c3d4e5f60001', InstanceType: 't3.micro', State: { Code: 16, Name: 'running' } });
    expect(i.Tags).toContainEqual({ Key: 'Name', Value: 'web' });
    expect(i.BlockDeviceMappings[0].Ebs.VolumeId).toBe('vol-0001');
    const stop = await aws(['ec2', 'stop-instances', '--instance-ids', 'i-0a1b2c3d4e5f60001']);
    expect(stop.json.StoppingInstances[0]).toMatchObject({ CurrentState: { Name: 'stopping' }, PreviousState: { Name: 'running' } });
    expect((await aws(['ec2', 'start-instances', '--instance-ids', 'i-0a1b2c3d4e5f60001'])).json.StartingInstances[0].CurrentState.Name).toBe('pending');
    expect((await aws(['ec2', 'create-tags', '--resources', 'i-0a1b2c3d4e5f60002', '--tags', 'Key=gantry:cost-optimizer,Value=s-1'])).code).toBe(0);
    expect(s.world.instances[1]!.tags['gantry:cost-optimizer']).toBe('s-1');
    const vols = await aws(['ec2', 'describe-volumes']);
    expect(vols.json.Volumes[0]).toMatchObject({ VolumeId: 'vol-0001', Size: 20, VolumeType: 'gp3', Attachments: [{ InstanceId: 'i-0a1b2c3d4e5f60001' }] });
    const missing = await aws(['ec2', 'stop-instances', '--instance-ids', 'i-0000000000000dead']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('InvalidInstanceID.NotFound');
  });

  it('Auto Scaling: groups with capacities and instances, capacity update, tags', async () => {
    const g = (await aws(['autoscaling', 'describe-auto-scaling-groups'])).json.AutoScalingGroups[0];
    expect(g).toMatchObject({ AutoScalingGroupName: 'workers', MinSize: 1, MaxSize: 4, DesiredCapacity: 2 });
    expect(g.Instances).toHaveLength(2);
    expect(g.Instances[0].InstanceType).toBe('t3.micro');
    expect(
      (await aws(['autoscaling', 'update-auto-scaling-group', '--auto-scaling-group-name', 'workers', '--min-size', '0', '--desired-capacity', '0'])).code,
    ).toBe(0);
    expect(s.world.asgs[0]).toMatchObject({ minSize: 0, desiredCapacity: 0, maxSize: 4 });
    const tag = await aws([
      'autoscaling',
      'create-or-update-tags',
      '--tags',
      'ResourceId=workers,ResourceType=auto-scaling-group,Key=gantry:cost-optimizer,Value=s-1,PropagateAtLaunch=true',
    ]);
    expect(tag.code).toBe(0);
    const filtered = await aws(['autoscaling', 'describe-auto-scaling-groups', '--filters', 'Name=tag:gantry:cost-optimizer,Values=s-1']);
    expect(filtered.json.AutoScalingGroups.map((x: any) => x.AutoScalingGroupName)).toEqual(['workers']);
    const bad = await aws(['autoscaling', 'update-auto-scaling-group', '--auto-scaling-group-name', 'workers', '--desired-capacity', '9']);
    expect(bad.stderr).toContain('ValidationError');
  });

  it('ELB and ELBv2: load balancers of each kind and their tags', async () => {
    const classic = await aws(['elb', 'describe-load-balancers']);
    expect(classic.json.LoadBalancerDescriptions.map((l: any) => l.LoadBalancerName)).toEqual(['old-web']);
    const v2 = await aws(['elbv2', 'describe-load-balancers']);
    expect(v2.json.LoadBalancers.map((l: any) => [l.LoadBalancerName, l.Type, l.State.Code])).toEqual([
      ['api', 'application', 'active'],
      ['tcp', 'network', 'active'],
    ]);
    const arn = v2.json.LoadBalancers[0].LoadBalancerArn;
    expect(arn).toMatch(/^arn:aws:elasticloadbalancing:eu-west-1:123456789012:loadbalancer\/app\/api\/[0-9a-f]{16}$/);
    const tags = await aws(['elbv2', 'describe-tags', '--resource-arns', arn]);
    expect(tags.json.TagDescriptions[0].Tags).toEqual([{ Key: 'gantry:environment', Value: 'stage-1' }]);
    expect((await aws(['elb', 'describe-tags', '--load-balancer-names', 'old-web'])).json.TagDescriptions[0]).toEqual({
      LoadBalancerName: 'old-web',
      Tags: [],
    });
  });

  it('RDS: DB instances with tags, stop/start by the real state rules, tagging by ARN', async () => {
    const db = (await aws(['rds', 'describe-db-instances'])).json.DBInstances[0];
    expect(db).toMatchObject({
      DBInstanceIdentifier: 'shop-db',
      DBInstanceClass: 'db.t3.micro',
      DBInstanceStatus: 'available',
      AllocatedStorage: 20,
      StorageType: 'gp2',
    });
    expect((await aws(['rds', 'add-tags-to-resource', '--resource-name', db.DBInstanceArn, '--tags', 'Key=gantry:cost-optimizer,Value=s-1'])).code).toBe(0);
    expect((await aws(['rds', 'describe-db-instances'])).json.DBInstances[0].TagList).toEqual([{ Key: 'gantry:cost-optimizer', Value: 's-1' }]);
    expect((await aws(['rds', 'stop-db-instance', '--db-instance-identifier', 'shop-db'])).json.DBInstance.DBInstanceStatus).toBe('stopping');
    const again = await aws(['rds', 'stop-db-instance', '--db-instance-identifier', 'shop-db']);
    expect(again.stderr).toContain('InvalidDBInstanceState');
    expect((await aws(['rds', 'start-db-instance', '--db-instance-identifier', 'shop-db'])).json.DBInstance.DBInstanceStatus).toBe('starting');
  });

  it('CloudWatch: GetMetricData answers the recorded daily series, newest first', async () => {
    const q = JSON.stringify([
      {
        Id: 'cpu',
        MetricStat: {
          Metric: { Namespace: 'AWS/EC2', MetricName: 'CPUUtilization', Dimensions: [{ Name: 'InstanceId', Value: 'i-0a1b2c3d4e5f60001' }] },
          Period: 86400,
          Stat: 'Average',
        },
      },
    ]);
    const r = await aws([
      'cloudwatch',
      'get-metric-data',
      '--metric-data-queries',
      q,
      '--start-time',
      '2026-11-06T00:00:00Z',
      '--end-time',
      '2026-11-20T00:00:00Z',
    ]);
    expect(r.code).toBe(0);
    const m = r.json.MetricDataResults[0];
    expect(m).toMatchObject({ Id: 'cpu', StatusCode: 'Complete', Values: [50, 4.5, 3] });
    expect(m.Timestamps.map((t: string) => new Date(t).toISOString())).toEqual([
      '2026-11-19T00:00:00.000Z',
      '2026-11-18T00:00:00.000Z',
      '2026-11-17T00:00:00.000Z',
    ]);
  });

  it('Pricing: GetProducts with TERM_MATCH filters, products as JSON strings', async () => {
    const r = await aws([
      'pricing',
      'get-products',
      '--region',
      'us-east-1',
      '--service-code',
      'AmazonEC2',
      '--filters',
      'Type=TERM_MATCH,Field=instanceType,Value=t3.micro',
      'Type=TERM_MATCH,Field=regionCode,Value=eu-west-1',
      'Type=TERM_MATCH,Field=operatingSystem,Value=Linux',
    ]);
    expect(r.code).toBe(0);
    expect(r.json.PriceList).toHaveLength(1);
    const product = JSON.parse(r.json.PriceList[0]);
    const dim = Object.values(Object.values(product.terms.OnDemand as Record<string, any>)[0].priceDimensions as Record<string, any>)[0];
    expect(dim).toMatchObject({ unit: 'Hrs', pricePerUnit: { USD: '0.0104000000' } });
  });

  it('Cost Explorer: costs grouped by account, service and tag; forecast without history is DataUnavailableException', async () => {
    const byService = await aws([
      'ce',
      'get-cost-and-usage',
      '--time-period',
      'Start=2026-10-01,End=2026-12-01',
      '--granularity',
      'MONTHLY',
      '--metrics',
      'UnblendedCost',
      '--group-by',
      'Type=DIMENSION,Key=SERVICE',
    ]);
    expect(byService.code).toBe(0);
    expect(byService.json.ResultsByTime.map((p: any) => [p.TimePeriod.Start, p.Groups.map((g: any) => [g.Keys[0], g.Metrics.UnblendedCost.Amount])])).toEqual([
      ['2026-10-01', [['Amazon Elastic Compute Cloud - Compute', '10.5']]],
      ['2026-11-01', [['Amazon Relational Database Service', '4.25']]],
    ]);
    const byTag = await aws([
      'ce',
      'get-cost-and-usage',
      '--time-period',
      'Start=2026-10-01,End=2026-11-01',
      '--granularity',
      'MONTHLY',
      '--metrics',
      'UnblendedCost',
      '--group-by',
      'Type=TAG,Key=gantry:environment',
    ]);
    expect(byTag.json.ResultsByTime[0].Groups[0].Keys).toEqual(['gantry:environment$stage-1']);
    const byServiceAndTag = await aws([
      'ce',
      'get-cost-and-usage',
      '--time-period',
      'Start=2026-10-01,End=2026-12-01',
      '--granularity',
      'MONTHLY',
      '--metrics',
      'UnblendedCost',
      '--filter',
      JSON.stringify({ And: [{ Dimensions: { Key: 'LINKED_ACCOUNT', Values: ['123456789012'] } }, { Dimensions: { Key: 'REGION', Values: ['eu-west-1'] } }] }),
      '--group-by',
      'Type=DIMENSION,Key=SERVICE',
      'Type=TAG,Key=team',
    ]);
    expect(byServiceAndTag.code, byServiceAndTag.stderr).toBe(0);
    expect(byServiceAndTag.json.ResultsByTime.map((p: any) => p.Groups)).toEqual([
      [{ Keys: ['Amazon Elastic Compute Cloud - Compute', 'team$'], Metrics: { UnblendedCost: { Amount: '10.5', Unit: 'USD' } } }],
      [],
    ]);
    const forecast = await aws([
      'ce',
      'get-cost-forecast',
      '--time-period',
      'Start=2026-11-20,End=2026-12-01',
      '--granularity',
      'MONTHLY',
      '--metric',
      'UNBLENDED_COST',
    ]);
    expect(forecast.code).not.toBe(0);
    expect(forecast.stderr).toContain('DataUnavailableException');
  });
});

// CloudFormation and S3 as Gantry uses them: nested templates uploaded to a bucket, a parent stack
// of nested stacks, its events, updates, rollbacks and deletes, all read by botocore's models.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'standin-cfn-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return `file://${path.join(dir, name)}`;
};
const VPC = `Parameters:
  CidrBlock: { Type: String, Default: 10.20.0.0/16 }
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties: { CidrBlock: !Ref CidrBlock }
  Subnet:
    Type: AWS::EC2::Subnet
    Properties:
      VpcId: !Ref Vpc
      AvailabilityZone: !Select [0, !GetAZs '']
      CidrBlock: !Select [1, !Cidr [!Ref CidrBlock, 4, 8]]
Outputs:
  VpcId: { Value: !Ref Vpc }
  SubnetCidr: { Value: !Sub '\${Subnet} in \${AWS::Region}' }
`;
const BUCKET = 'gantry-templates-123456789012-eu-west-1';
const parent = (cidr: string, version = 'v1') =>
  JSON.stringify({
    Resources: {
      net: {
        Type: 'AWS::CloudFormation::Stack',
        Properties: {
          TemplateURL: `${s.url}/${BUCKET}/${version}/net.template`,
          Parameters: { CidrBlock: cidr },
          Tags: [{ Key: 'gantry:environment', Value: 'e1' }],
        },
      },
    },
    Outputs: { netVpcId: { Description: 'net.VpcId', Value: { 'Fn::GetAtt': ['net', 'Outputs.VpcId'] } } },
  });
const settledStack = async (name: string) => {
  for (;;) {
    const d = await aws(['cloudformation', 'describe-stacks', '--stack-name', name]);
    expect(d.code, d.stderr).toBe(0);
    if (!d.json.Stacks[0].StackStatus.endsWith('_IN_PROGRESS')) return d.json.Stacks[0];
    await new Promise((r) => setTimeout(r, 100));
  }
};
/** The stack's events, oldest first, as `LogicalId STATUS [reason]`. */
const eventLines = async (ref: string) => {
  const e = await aws(['cloudformation', 'describe-stack-events', '--stack-name', ref]);
  expect(e.code, e.stderr).toBe(0);
  return e.json.StackEvents.reverse().map(
    (x: any) => `${x.LogicalResourceId} ${x.ResourceStatus}${x.ResourceStatusReason ? ` ${x.ResourceStatusReason}` : ''}`,
  );
};

describe('CloudFormation and S3 of the AWS stand-in read by the AWS CLI', { timeout: 240_000 }, () => {
  it('S3: a missing bucket is a 404, made in its region, a lifecycle, objects written, read and listed', async () => {
    const missing = await aws(['s3api', 'head-bucket', '--bucket', BUCKET]);
    expect([missing.code === 0, missing.stderr]).toEqual([
      false,
      expect.stringContaining('An error occurred (404) when calling the HeadBucket operation: Not Found'),
    ]);
    const made = await aws(['s3api', 'create-bucket', '--bucket', BUCKET, '--create-bucket-configuration', 'LocationConstraint=eu-west-1']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json.Location).toBe(`/${BUCKET}`);
    const again = await aws(['s3api', 'create-bucket', '--bucket', BUCKET, '--create-bucket-configuration', 'LocationConstraint=eu-west-1']);
    expect(again.stderr).toContain('BucketAlreadyOwnedByYou');
    expect((await aws(['s3api', 'head-bucket', '--bucket', BUCKET])).code).toBe(0);
    const rules = { Rules: [{ ID: 'expire', Status: 'Enabled', Filter: { Prefix: '' }, Expiration: { Days: 30 } }] };
    const lifecycle = await aws(['s3api', 'put-bucket-lifecycle-configuration', '--bucket', BUCKET, '--lifecycle-configuration', JSON.stringify(rules)]);
    expect(lifecycle.code, lifecycle.stderr).toBe(0);
    expect((await aws(['s3api', 'get-bucket-lifecycle-configuration', '--bucket', BUCKET])).json.Rules).toEqual(rules.Rules);
    file('x', VPC);
    const put = await aws(['s3api', 'put-object', '--bucket', BUCKET, '--key', 'v1/net.template', '--body', path.join(dir, 'x')]);
    expect(put.code, put.stderr).toBe(0);
    expect(put.json.ETag).toMatch(/^"[0-9a-f]{32}"$/);
    const got = await aws(['s3api', 'get-object', '--bucket', BUCKET, '--key', 'v1/net.template', path.join(dir, 'got')]);
    expect([got.code, got.json?.ETag, fs.readFileSync(path.join(dir, 'got'), 'utf8')]).toEqual([0, put.json.ETag, VPC]);
    const listed = await aws(['s3api', 'list-objects-v2', '--bucket', BUCKET, '--prefix', 'v1/']);
    expect(listed.json.Contents.map((o: any) => [o.Key, o.Size])).toEqual([['v1/net.template', Buffer.byteLength(VPC)]]);
    const noKey = await aws(['s3api', 'get-object', '--bucket', BUCKET, '--key', 'nope', path.join(dir, 'nope')]);
    expect(noKey.stderr).toContain('NoSuchKey');
  });

  it('a stack of a nested stack from S3: created over time with events in order, outputs, resources; no-op update refused', async () => {
    const parentFile = file('parent.json', parent('10.20.0.0/16'));
    const created = await aws(
      `cloudformation create-stack --stack-name gantry-shop --template-body ${parentFile} --tags Key=gantry:environment,Value=e1`.split(' '),
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.json.StackId).toMatch(/^arn:aws:cloudformation:eu-west-1:123456789012:stack\/gantry-shop\/[0-9a-f-]{36}$/);
    const done = await settledStack('gantry-shop');
    expect(done).toMatchObject({ StackStatus: 'CREATE_COMPLETE', Tags: [{ Key: 'gantry:environment', Value: 'e1' }] });
    expect(done.Outputs).toEqual([{ OutputKey: 'netVpcId', OutputValue: expect.stringMatching(/^vpc-0[0-9a-f]{16}$/), Description: 'net.VpcId' }]);
    expect(await eventLines('gantry-shop')).toEqual([
      'gantry-shop CREATE_IN_PROGRESS User Initiated',
      'net CREATE_IN_PROGRESS',
      'net CREATE_IN_PROGRESS Resource creation Initiated',
      'net CREATE_COMPLETE',
      'gantry-shop CREATE_COMPLETE',
    ]);
    const res = await aws(['cloudformation', 'describe-stack-resources', '--stack-name', 'gantry-shop']);
    const net = res.json.StackResources[0];
    expect(net).toMatchObject({ LogicalResourceId: 'net', ResourceType: 'AWS::CloudFormation::Stack', ResourceStatus: 'CREATE_COMPLETE' });
    const child = await settledStack(net.PhysicalResourceId);
    expect(child).toMatchObject({
      StackName: expect.stringMatching(/^gantry-shop-net-[A-Z0-9]{12}$/),
      ParentId: created.json.StackId,
      RootId: created.json.StackId,
    });
    expect(child.Parameters).toEqual([{ ParameterKey: 'CidrBlock', ParameterValue: '10.20.0.0/16' }]);
    expect(child.Outputs.find((o: any) => o.OutputKey === 'SubnetCidr').OutputValue).toMatch(/^subnet-0[0-9a-f]{16} in eu-west-1$/);
    // the child's events: Subnet waits for Vpc
    expect((await eventLines(net.PhysicalResourceId)).map((l: string) => l.replace(child.StackName, 'child'))).toEqual([
      'child CREATE_IN_PROGRESS User Initiated',
      'Vpc CREATE_IN_PROGRESS',
      'Vpc CREATE_IN_PROGRESS Resource creation Initiated',
      'Vpc CREATE_COMPLETE',
      'Subnet CREATE_IN_PROGRESS',
      'Subnet CREATE_IN_PROGRESS Resource creation Initiated',
      'Subnet CREATE_COMPLETE',
      'child CREATE_COMPLETE',
    ]);
    const same = await aws(['cloudformation', 'update-stack', '--stack-name', 'gantry-shop', '--template-body', file('parent.json', parent('10.20.0.0/16'))]);
    expect([same.code === 0, same.stderr]).toEqual([
      false,
      expect.stringContaining('ValidationError) when calling the UpdateStack operation: No updates are to be performed.'),
    ]);
    const none = await aws(['cloudformation', 'describe-stacks', '--stack-name', 'gantry-nothing']);
    expect(none.stderr).toContain('Stack with id gantry-nothing does not exist');
    const refused = await aws([
      'cloudformation',
      'create-stack',
      '--stack-name',
      'gantry-bad',
      '--template-body',
      file('bad.yaml', 'Resources:\n  X:\n    Type: AWS::Nope\n'),
    ]);
    expect(refused.stderr).toContain('Template format error: Unrecognized resource types: [AWS::Nope]');
  });

  it('an update whose nested resource fails rolls back; a cancelled update rolls back; delete leaves the stack by its id', async () => {
    const bad = await aws(['cloudformation', 'update-stack', '--stack-name', 'gantry-shop', '--template-body', file('parent.json', parent('10.20.0.0/33'))]);
    expect(bad.code, bad.stderr).toBe(0);
    const rolled = await settledStack('gantry-shop');
    expect(rolled).toMatchObject({ StackStatus: 'UPDATE_ROLLBACK_COMPLETE' });
    const lines = (await eventLines('gantry-shop')).slice(5);
    expect(lines[0]).toBe('gantry-shop UPDATE_IN_PROGRESS User Initiated');
    expect(lines[1]).toBe('net UPDATE_IN_PROGRESS');
    expect(lines[2]).toMatch(
      /^net UPDATE_FAILED Embedded stack arn:\S+ was not successfully updated. Currently in UPDATE_ROLLBACK_COMPLETE with reason: The following resource\(s\) failed to update: \[Vpc\]. $/,
    );
    expect(lines.slice(3)).toEqual([
      'gantry-shop UPDATE_ROLLBACK_IN_PROGRESS The following resource(s) failed to update: [net]. ',
      'net UPDATE_IN_PROGRESS',
      'net UPDATE_COMPLETE',
      'gantry-shop UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS',
      'gantry-shop UPDATE_ROLLBACK_COMPLETE',
    ]);
    const childId = (await aws(['cloudformation', 'describe-stack-resources', '--stack-name', 'gantry-shop'])).json.StackResources[0].PhysicalResourceId;
    expect((await eventLines(childId)).filter((l: string) => l.startsWith('Vpc UPDATE_FAILED'))).toEqual([
      expect.stringMatching(/^Vpc UPDATE_FAILED Value \(10.20.0.0\/33\) for parameter cidrBlock is invalid. This is not a valid CIDR block. \(Service: EC2/),
    ]);

    file('x', VPC);
    expect((await aws(['s3api', 'put-object', '--bucket', BUCKET, '--key', 'v2/net.template', '--body', path.join(dir, 'x')])).code).toBe(0);
    expect(
      (await aws(['cloudformation', 'update-stack', '--stack-name', 'gantry-shop', '--template-body', file('parent.json', parent('10.30.0.0/16', 'v2'))])).code,
    ).toBe(0);
    const cancelled = await aws(['cloudformation', 'cancel-update-stack', '--stack-name', 'gantry-shop']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(await settledStack('gantry-shop')).toMatchObject({ StackStatus: 'UPDATE_ROLLBACK_COMPLETE', StackStatusReason: 'Resource update cancelled' });
    const notNow = await aws(['cloudformation', 'cancel-update-stack', '--stack-name', 'gantry-shop']);
    expect(notNow.stderr).toContain('CancelUpdateStack cannot be called from current stack status');

    const id = rolled.StackId;
    expect((await aws(['cloudformation', 'delete-stack', '--stack-name', 'gantry-shop'])).code).toBe(0);
    expect(await settledStack(id)).toMatchObject({ StackStatus: 'DELETE_COMPLETE', DeletionTime: expect.any(String) });
    expect((await aws(['cloudformation', 'describe-stacks', '--stack-name', 'gantry-shop'])).stderr).toContain('Stack with id gantry-shop does not exist');
    expect(await settledStack(childId)).toMatchObject({ StackStatus: 'DELETE_COMPLETE' });
    expect((await eventLines(id)).slice(-4)).toEqual([
      'gantry-shop DELETE_IN_PROGRESS User Initiated',
      'net DELETE_IN_PROGRESS',
      'net DELETE_COMPLETE',
      'gantry-shop DELETE_COMPLETE',
    ]);
  });

  it('a first create whose resource fails rolls back to ROLLBACK_COMPLETE, which cannot be updated', async () => {
    const template = file('broken.yaml', VPC);
    const made = await aws(
      `cloudformation create-stack --stack-name gantry-broken --template-body ${template} --parameters ParameterKey=CidrBlock,ParameterValue=10.0.0.0/8`.split(
        ' ',
      ),
    );
    expect(made.code, made.stderr).toBe(0);
    expect(await settledStack('gantry-broken')).toMatchObject({
      StackStatus: 'ROLLBACK_COMPLETE',
      StackStatusReason: 'The following resource(s) failed to create: [Vpc]. Rollback requested by user.',
    });
    expect((await eventLines('gantry-broken')).slice(-4)).toEqual([
      'gantry-broken ROLLBACK_IN_PROGRESS The following resource(s) failed to create: [Vpc]. Rollback requested by user.',
      'Vpc DELETE_IN_PROGRESS',
      'Vpc DELETE_COMPLETE',
      'gantry-broken ROLLBACK_COMPLETE',
    ]);
    const update = await aws(['cloudformation', 'update-stack', '--stack-name', 'gantry-broken', '--use-previous-template']);
    expect(update.stderr).toMatch(
      /Stack:arn:aws:cloudformation:eu-west-1:123456789012:stack\/gantry-broken\/\S+ is in ROLLBACK_COMPLETE state and can not be updated./,
    );
    const missingParam = await aws([
      'cloudformation',
      'create-stack',
      '--stack-name',
      'gantry-p',
      '--template-body',
      file('p.yaml', 'Parameters:\n  Size: { Type: String }\nResources:\n  T:\n    Type: AWS::SNS::Topic\n'),
    ]);
    expect(missingParam.stderr).toContain('Parameters: [Size] must have values');
  });
});
