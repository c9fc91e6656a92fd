import { execFile } from 'node:child_process';
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
