import { EC2Client, CreateTagsCommand, DeleteTagsCommand } from '@aws-sdk/client-ec2';
import { AutoScalingClient, CreateOrUpdateTagsCommand, DeleteTagsCommand as DeleteGroupTagsCommand } from '@aws-sdk/client-auto-scaling';
import { RDSClient, AddTagsToResourceCommand, RemoveTagsFromResourceCommand, DescribeDBInstancesCommand } from '@aws-sdk/client-rds';
import type { AwsSession } from './session.js';

export interface ResourceRef {
  type: 'ec2' | 'asg' | 'rds';
  id: string;
}

/** Puts (or with `remove`, takes off) the tag on EC2 instances, Auto Scaling groups and RDS instances (RDS by its ARN). */
export async function tagResources(s: AwsSession, refs: ResourceRef[], tag: { key: string; value: string }, remove = false): Promise<void> {
  const ids = (type: ResourceRef['type']) => refs.filter((r) => r.type === type).map((r) => r.id);
  const ec2Ids = ids('ec2');
  if (ec2Ids.length) {
    const ec2 = new EC2Client({ region: s.region, credentials: s.credentials });
    try {
      const Tags = [{ Key: tag.key, Value: tag.value }];
      if (remove) await ec2.send(new DeleteTagsCommand({ Resources: ec2Ids, Tags }));
      else await ec2.send(new CreateTagsCommand({ Resources: ec2Ids, Tags }));
    } finally {
      ec2.destroy();
    }
  }
  const groups = ids('asg');
  if (groups.length) {
    const asg = new AutoScalingClient({ region: s.region, credentials: s.credentials });
    try {
      const Tags = groups.map((name) => ({ ResourceId: name, ResourceType: 'auto-scaling-group', Key: tag.key, Value: tag.value, PropagateAtLaunch: true }));
      if (remove) await asg.send(new DeleteGroupTagsCommand({ Tags }));
      else await asg.send(new CreateOrUpdateTagsCommand({ Tags }));
    } finally {
      asg.destroy();
    }
  }
  const dbs = ids('rds');
  if (dbs.length) {
    const rds = new RDSClient({ region: s.region, credentials: s.credentials });
    try {
      for (const id of dbs) {
        const db = (await rds.send(new DescribeDBInstancesCommand({ DBInstanceIdentifier: id }))).DBInstances?.[0];
        const arn = db?.DBInstanceArn ?? id;
        if (remove) await rds.send(new RemoveTagsFromResourceCommand({ ResourceName: arn, TagKeys: [tag.key] }));
        else await rds.send(new AddTagsToResourceCommand({ ResourceName: arn, Tags: [{ Key: tag.key, Value: tag.value }] }));
      }
    } finally {
      rds.destroy();
    }
  }
}
