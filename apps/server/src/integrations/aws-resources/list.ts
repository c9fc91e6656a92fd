import { EC2Client, DescribeInstancesCommand, DescribeVolumesCommand, type Instance } from '@aws-sdk/client-ec2';
import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { RDSClient, DescribeDBInstancesCommand, type DBInstance } from '@aws-sdk/client-rds';
import type { CloudResource, CloudResources } from '@gantry/contracts';
import type { AwsSession } from './session.js';
import { createPriceLookup } from './pricing.js';
import { describeGroups, runningCapacity, SAVED_CAPACITY_TAG } from './auto-scaling.js';

const round = (n: number) => Math.round(n * 10000) / 10000;
const tagsOf = (tags: { Key?: string; Value?: string }[] | undefined) =>
  (tags ?? []).filter((t) => t.Key && t.Key !== SAVED_CAPACITY_TAG).map((t) => ({ key: t.Key!, value: t.Value ?? '' }));

async function instances(ec2: EC2Client) {
  const out: Instance[] = [];
  let token: string | undefined;
  do {
    const page = await ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }], NextToken: token }),
    );
    for (const r of page.Reservations ?? []) out.push(...(r.Instances ?? []));
    token = page.NextToken;
  } while (token);
  return out;
}
async function databases(rds: RDSClient) {
  const out: DBInstance[] = [];
  let marker: string | undefined;
  do {
    const page = await rds.send(new DescribeDBInstancesCommand({ Marker: marker }));
    out.push(...(page.DBInstances ?? []));
    marker = page.Marker;
  } while (marker);
  return out;
}

/**
 * The resources a saving schedule can cover (spec §2.10): EC2 instances with their EBS volumes,
 * Auto Scaling groups with their capacities, RDS instances, each priced from the Price List API.
 * Running means running (EC2), available (RDS), or a desired capacity above 0 (groups).
 */
export async function listResources(s: AwsSession, accountId: string): Promise<CloudResources> {
  const ec2 = new EC2Client({ region: s.region, credentials: s.credentials });
  const asg = new AutoScalingClient({ region: s.region, credentials: s.credentials });
  const rds = new RDSClient({ region: s.region, credentials: s.credentials });
  const prices = createPriceLookup(s);
  try {
    const [found, groups, dbs] = await Promise.all([instances(ec2), describeGroups(asg), databases(rds)]);
    const volumeIds = found.flatMap((i) => (i.BlockDeviceMappings ?? []).map((b) => b.Ebs?.VolumeId).filter((v): v is string => !!v));
    const volumes = volumeIds.length ? ((await ec2.send(new DescribeVolumesCommand({ VolumeIds: volumeIds }))).Volumes ?? []) : [];

    const ec2Resources = await Promise.all(
      found.map(async (i): Promise<CloudResource> => {
        const id = i.InstanceId!;
        const mine = volumes.filter((v) => (v.Attachments ?? []).some((a) => a.InstanceId === id));
        return {
          type: 'ec2',
          id,
          name: i.Tags?.find((t) => t.Key === 'Name')?.Value ?? id,
          arn: `arn:aws:ec2:${s.region}:${accountId}:instance/${id}`,
          state: i.State?.Name ?? 'unknown',
          running: i.State?.Name === 'running',
          instanceType: i.InstanceType ?? null,
          price: i.InstanceType ? await prices.ec2(i.InstanceType) : null,
          storagePrice: null,
          ebsData: await Promise.all(
            mine.map(async (v) => {
              const perGb = v.VolumeType ? await prices.ebs(v.VolumeType) : null;
              return {
                volumeId: v.VolumeId!,
                volumeType: v.VolumeType ?? 'unknown',
                sizeGb: v.Size ?? 0,
                monthlyPrice: perGb === null ? null : round(perGb * (v.Size ?? 0)),
              };
            }),
          ),
          tags: tagsOf(i.Tags),
          asgGroupCapacity: null,
        };
      }),
    );
    const asgResources = await Promise.all(
      groups.map(async (g): Promise<CloudResource> => {
        const type = g.Instances?.[0]?.InstanceType ?? null;
        const capacity = runningCapacity(g);
        return {
          type: 'asg',
          id: g.AutoScalingGroupName!,
          name: g.AutoScalingGroupName!,
          arn: g.AutoScalingGroupARN ?? null,
          state: (g.DesiredCapacity ?? 0) > 0 ? 'running' : 'stopped',
          running: (g.DesiredCapacity ?? 0) > 0,
          instanceType: type,
          price: type ? await prices.ec2(type) : null,
          storagePrice: null,
          ebsData: [],
          tags: tagsOf(g.Tags),
          asgGroupCapacity: capacity,
        };
      }),
    );
    const rdsResources = await Promise.all(
      dbs.map(async (db): Promise<CloudResource> => {
        const multiAz = !!db.MultiAZ;
        const perGb = db.StorageType ? await prices.rdsStorage(db.StorageType, multiAz) : null;
        return {
          type: 'rds',
          id: db.DBInstanceIdentifier!,
          name: db.DBInstanceIdentifier!,
          arn: db.DBInstanceArn ?? null,
          state: db.DBInstanceStatus ?? 'unknown',
          running: db.DBInstanceStatus === 'available',
          instanceType: db.DBInstanceClass ?? null,
          price: db.DBInstanceClass && db.Engine ? await prices.rds(db.DBInstanceClass, db.Engine, multiAz) : null,
          storagePrice: perGb === null ? null : round(perGb * (db.AllocatedStorage ?? 0)),
          ebsData: [],
          tags: tagsOf(db.TagList),
          asgGroupCapacity: null,
        };
      }),
    );
    return { ec2: ec2Resources, asg: asgResources, rds: rdsResources };
  } finally {
    ec2.destroy();
    asg.destroy();
    rds.destroy();
    prices.close();
  }
}
