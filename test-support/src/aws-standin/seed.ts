import { lbSuffix, type StandinCost, type StandinMetric, type StandinWorld } from './state.js';

const MB = 1024 * 1024;
const days = (n: number, v: number | ((i: number) => number)) => Array.from({ length: n }, (_, i) => (typeof v === 'number' ? v : v(i)));

/**
 * A small AWS account in eu-west-1 with a known answer for every waste advisor rule, resources to
 * schedule and a year of costs. `stageId` is the `gantry:environment` tag of the environment's share.
 */
export function seedWasteWorld(o: { stageId?: string; now?: number; accountId?: string } = {}): Partial<StandinWorld> {
  const region = 'eu-west-1';
  const env = o.stageId ?? 'stage-seeded';
  const metric = (namespace: string, metricName: string, name: string, value: string, daily: number[]): StandinMetric => ({
    region,
    namespace,
    metricName,
    dimension: { name, value },
    daily,
  });
  const ec2 = (id: string, cpu: number[], net: number[]) => [
    metric('AWS/EC2', 'CPUUtilization', 'InstanceId', id, cpu),
    metric(
      'AWS/EC2',
      'NetworkIn',
      'InstanceId',
      id,
      net.map((b) => b / 2),
    ),
    metric(
      'AWS/EC2',
      'NetworkOut',
      'InstanceId',
      id,
      net.map((b) => b / 2),
    ),
  ];
  // 14 days: "idle" every day; "edge" exactly 4 low days (10 % and 5 MB on the limit); "almost" 3
  const lowDays = (n: number) => (i: number) => (i < n ? 10 : 45);
  const lowNet = (n: number) => (i: number) => (i < n ? 5 * MB : 80 * MB);
  const now = o.now ?? Date.now();
  const costs: StandinCost[] = [];
  const today = new Date(now);
  for (let d = 400; d >= 1; d--) {
    const date = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - d)).toISOString().slice(0, 10);
    costs.push(
      { date, account: o.accountId ?? '123456789012', service: 'Amazon Elastic Compute Cloud - Compute', environment: env, region, amount: 3.2 },
      { date, account: o.accountId ?? '123456789012', service: 'Amazon Relational Database Service', environment: '', region, amount: 1.8 },
      { date, account: o.accountId ?? '123456789012', service: 'Amazon Simple Storage Service', environment: '', region: 'us-east-1', amount: 0.5 },
    );
  }
  return {
    ...(o.accountId ? { accountId: o.accountId } : {}),
    instances: [
      {
        id: 'i-0a00000000000idle',
        region,
        type: 't3.micro',
        state: 'running',
        tags: { Name: 'web-idle', 'gantry:environment': env },
        volumes: [{ id: 'vol-0a0000000000idle', type: 'gp3', sizeGb: 20 }],
      },
      {
        id: 'i-0a00000000000busy',
        region,
        type: 't3.small',
        state: 'running',
        tags: { Name: 'batch' },
        volumes: [{ id: 'vol-0a0000000000busy', type: 'gp2', sizeGb: 50 }],
      },
      { id: 'i-0a00000000000edge', region, type: 't3.micro', state: 'running', tags: { Name: 'edge' }, volumes: [] },
      { id: 'i-0a0000000000almst', region, type: 't3.medium', state: 'stopped', tags: { Name: 'almost', 'gantry:environment': env }, volumes: [] },
    ],
    asgs: [{ name: 'workers', region, minSize: 1, maxSize: 4, desiredCapacity: 2, instanceType: 't3.small', tags: { team: 'platform' } }],
    lbs: [
      { name: 'legacy-web', region, kind: 'classic', tags: {} },
      { name: 'shop-web', region, kind: 'classic', tags: {} },
      { name: 'api', region, kind: 'application', tags: { 'gantry:environment': env } },
      { name: 'tcp', region, kind: 'network', tags: {} },
      { name: 'inspect', region, kind: 'gateway', tags: {} },
    ],
    dbs: [
      {
        id: 'shop-db',
        region,
        instanceClass: 'db.t3.micro',
        engine: 'postgres',
        status: 'available',
        storageGb: 20,
        storageType: 'gp2',
        tags: { 'gantry:environment': env },
      },
      { id: 'orders-db', region, instanceClass: 'db.t3.medium', engine: 'mysql', status: 'available', storageGb: 100, storageType: 'gp3', tags: {} },
    ],
    metrics: [
      ...ec2('i-0a00000000000idle', days(14, 2), days(14, MB)),
      ...ec2('i-0a00000000000busy', days(14, 60), days(14, 300 * MB)),
      ...ec2('i-0a00000000000edge', days(14, lowDays(4)), days(14, lowNet(4))),
      ...ec2('i-0a0000000000almst', days(14, lowDays(3)), days(14, lowNet(3))),
      metric('AWS/ELB', 'RequestCount', 'LoadBalancerName', 'legacy-web', days(7, 99)),
      metric('AWS/ELB', 'RequestCount', 'LoadBalancerName', 'shop-web', days(7, 2500)),
      // the application one idles (99 a day), the network one had 100 flows on one day; the gateway has no data
      metric('AWS/ApplicationELB', 'RequestCount', 'LoadBalancer', `app/api/${lbSuffix('api')}`, days(7, 99)),
      metric(
        'AWS/NetworkELB',
        'ActiveFlowCount',
        'LoadBalancer',
        `net/tcp/${lbSuffix('tcp')}`,
        days(7, (i) => (i === 3 ? 100 : 0)),
      ),
      metric('AWS/RDS', 'DatabaseConnections', 'DBInstanceIdentifier', 'shop-db', days(7, 0)),
      metric(
        'AWS/RDS',
        'DatabaseConnections',
        'DBInstanceIdentifier',
        'orders-db',
        days(7, (i) => (i === 6 ? 1 : 0)),
      ),
    ],
    costs,
  };
}
