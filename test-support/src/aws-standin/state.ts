/** What the AWS stand-in holds: one world of resources across regions, changed by the calls it answers. */
export type Tags = Record<string, string>;
export interface StandinInstance {
  id: string;
  region: string;
  type: string;
  state: 'pending' | 'running' | 'stopping' | 'stopped' | 'terminated';
  tags: Tags;
  volumes: { id: string; type: string; sizeGb: number }[];
}
export interface StandinAsg {
  name: string;
  region: string;
  minSize: number;
  maxSize: number;
  desiredCapacity: number;
  instanceType: string;
  tags: Tags;
}
export type LbKind = 'classic' | 'application' | 'network' | 'gateway';
export interface StandinLb {
  name: string;
  region: string;
  kind: LbKind;
  tags: Tags;
}
export interface StandinDb {
  id: string;
  region: string;
  instanceClass: string;
  engine: string;
  status: 'available' | 'stopped' | 'starting' | 'stopping' | 'modifying';
  storageGb: number;
  storageType: string;
  tags: Tags;
}
/** A recorded metric: one value per day, the last one for yesterday (UTC), the first `daily.length` days ago. */
export interface StandinMetric {
  region: string;
  namespace: string;
  metricName: string;
  dimension: { name: string; value: string };
  daily: number[];
}
/** Cost Explorer data: amounts per day (YYYY-MM-DD) by linked account, service and `gantry:environment` tag value. */
export interface StandinCost {
  date: string;
  account: string;
  service: string;
  environment: string;
  /** The REGION dimension (us-east-1 when not given). */
  region?: string;
  amount: number;
}

/** An S3 object: its bytes (and them as text, for templates), ETag, when it was written, the checksum it was sent with. */
export interface StandinObject {
  data: Buffer;
  readonly body: string;
  etag: string;
  contentType: string;
  lastModified: number;
  /** x-amz-checksum-<algorithm> as S3 answers it: a whole object's (FULL_OBJECT) or a multipart upload's (COMPOSITE, `…-N`). */
  checksum?: { algorithm: string; value: string; type: 'FULL_OBJECT' | 'COMPOSITE' };
}
export const standinObject = (data: Buffer, o: Omit<StandinObject, 'data' | 'body'>): StandinObject => ({
  data,
  get body() {
    return data.toString('utf8');
  },
  ...o,
});
/** A multipart upload under way: its key, content type, the checksum algorithm it was started with, its parts by number. */
export interface StandinUpload {
  key: string;
  contentType: string;
  checksumAlgorithm: string | null;
  parts: Map<number, { data: Buffer; etag: string; checksum: string | null }>;
}
export interface StandinBucket {
  name: string;
  region: string;
  objects: Map<string, StandinObject>;
  lifecycle: string | null;
  /** Multipart uploads started and neither completed nor aborted, by upload id. */
  uploads?: Map<string, StandinUpload>;
}

export interface StandinWorld {
  accountId: string;
  buckets: StandinBucket[];
  /** CloudFormation stacks, deleted ones included (they still answer by their id); see cloudformation.ts. */
  stacks: import('./cloudformation.js').CfnStack[];
  instances: StandinInstance[];
  asgs: StandinAsg[];
  lbs: StandinLb[];
  dbs: StandinDb[];
  metrics: StandinMetric[];
  costs: StandinCost[];
  /** Cost Explorer forecasts answer DataUnavailableException while this holds. */
  forecastUnavailable: boolean;
  /** On-demand USD per hour by instance type / DB class, and USD per GB-month by EBS volume / RDS storage type. */
  prices: { ec2: Record<string, number>; rds: Record<string, number>; ebs: Record<string, number>; rdsStorage: Record<string, number> };
}

export const emptyWorld = (): StandinWorld => ({
  accountId: '123456789012',
  buckets: [],
  stacks: [],
  instances: [],
  asgs: [],
  lbs: [],
  dbs: [],
  metrics: [],
  costs: [],
  forecastUnavailable: false,
  prices: {
    ec2: { 't3.micro': 0.0104, 't3.small': 0.0208, 't3.medium': 0.0416, 'm5.large': 0.096 },
    rds: { 'db.t3.micro': 0.017, 'db.t3.medium': 0.068, 'db.m5.large': 0.171 },
    ebs: { gp2: 0.1, gp3: 0.08, io1: 0.125 },
    rdsStorage: { gp2: 0.115, gp3: 0.115, io1: 0.125 },
  },
});

/** ARNs and metric dimension values the real services use. */
export const lbArn = (w: StandinWorld, lb: StandinLb) =>
  `arn:aws:elasticloadbalancing:${lb.region}:${w.accountId}:loadbalancer/${lb.kind === 'application' ? 'app' : lb.kind === 'network' ? 'net' : 'gwy'}/${lb.name}/${lbSuffix(lb.name)}`;
export const lbSuffix = (name: string) => {
  let h = 0x811c9dc5;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return (h.toString(16) + '00000000').slice(0, 8) + (h ^ 0x5bd1e995).toString(16).padStart(8, '0');
};
export const dbArn = (w: StandinWorld, db: StandinDb) => `arn:aws:rds:${db.region}:${w.accountId}:db:${db.id}`;
export const asgArn = (w: StandinWorld, g: StandinAsg) =>
  `arn:aws:autoscaling:${g.region}:${w.accountId}:autoScalingGroup:6d8d2c8e-0000-4000-8000-${lbSuffix(g.name).slice(0, 12)}:autoScalingGroupName/${g.name}`;
