import { EC2Client, DescribeInstancesCommand, StartInstancesCommand, StopInstancesCommand } from '@aws-sdk/client-ec2';
import { RDSClient, DescribeDBInstancesCommand, StartDBInstanceCommand, StopDBInstanceCommand } from '@aws-sdk/client-rds';
import { changeGroups } from './auto-scaling.js';

export { listResources } from './list.js';
export { tagResources } from './tagging.js';
import type { AwsSession } from './session.js';
export type { AwsSession } from './session.js';

/**
 * Starts or stops the EC2 instances, Auto Scaling groups and RDS databases of an account and region
 * that carry a tag (a saving schedule's resources) — what "Start All / Stop All" and the scheduler do. Clients use the SDK's own chain
 * for endpoints, with the account's assumed-role credentials.
 */
export interface TaggedTarget extends AwsSession {
  tagKey: string;
  tagValue: string;
}
export type StateAction = 'start' | 'stop';
export interface StateChange {
  ec2: string[];
  asg: string[];
  rds: string[];
}

/** `only: 'rds'` re-stops the databases alone (AWS starts a stopped DB instance on its own after 7 days). */
export async function changeTaggedState(t: TaggedTarget, action: StateAction, only?: 'rds'): Promise<StateChange> {
  const ec2 = new EC2Client({ region: t.region, credentials: t.credentials });
  const rds = new RDSClient({ region: t.region, credentials: t.credentials });
  try {
    // an instance already in the wanted state is left alone (AWS would refuse some transitions)
    const from = action === 'start' ? 'stopped' : 'running';
    const instanceIds: string[] = [];
    let token: string | undefined;
    if (!only)
      do {
        const page = await ec2.send(
          new DescribeInstancesCommand({
            Filters: [
              { Name: `tag:${t.tagKey}`, Values: [t.tagValue] },
              { Name: 'instance-state-name', Values: [from] },
            ],
            NextToken: token,
          }),
        );
        for (const r of page.Reservations ?? []) for (const i of r.Instances ?? []) if (i.InstanceId) instanceIds.push(i.InstanceId);
        token = page.NextToken;
      } while (token);
    if (instanceIds.length)
      await ec2.send(action === 'start' ? new StartInstancesCommand({ InstanceIds: instanceIds }) : new StopInstancesCommand({ InstanceIds: instanceIds }));

    const dbs: string[] = [];
    let marker: string | undefined;
    do {
      const page = await rds.send(new DescribeDBInstancesCommand({ Marker: marker }));
      for (const db of page.DBInstances ?? []) {
        const tagged = (db.TagList ?? []).some((tag) => tag.Key === t.tagKey && tag.Value === t.tagValue);
        const ready = action === 'start' ? db.DBInstanceStatus === 'stopped' : db.DBInstanceStatus === 'available';
        if (tagged && ready && db.DBInstanceIdentifier) dbs.push(db.DBInstanceIdentifier);
      }
      marker = page.Marker;
    } while (marker);
    for (const id of dbs)
      await rds.send(action === 'start' ? new StartDBInstanceCommand({ DBInstanceIdentifier: id }) : new StopDBInstanceCommand({ DBInstanceIdentifier: id }));
    const asg = only ? [] : await changeGroups(t, action);
    return { ec2: instanceIds, asg, rds: dbs };
  } finally {
    ec2.destroy();
    rds.destroy();
  }
}
