import {
  AutoScalingClient,
  DescribeAutoScalingGroupsCommand,
  UpdateAutoScalingGroupCommand,
  CreateOrUpdateTagsCommand,
  DeleteTagsCommand,
  type AutoScalingGroup,
} from '@aws-sdk/client-auto-scaling';
import type { AwsSession } from './session.js';

/** Where a stopped group keeps the capacity to restore: a tag on the group itself, so any worker (or a person) can see and restore it. */
export const SAVED_CAPACITY_TAG = 'gantry:saved-capacity';
const encode = (g: AutoScalingGroup) => `${g.DesiredCapacity ?? 0}/${g.MinSize ?? 0}/${g.MaxSize ?? 0}`;
const decode = (v: string | undefined) => {
  const m = /^(\d+)\/(\d+)\/(\d+)$/.exec(v ?? '');
  return m ? { desired: Number(m[1]), min: Number(m[2]), max: Number(m[3]) } : null;
};

export async function describeGroups(asg: AutoScalingClient, filters?: { Name: string; Values: string[] }[]) {
  const groups: AutoScalingGroup[] = [];
  let token: string | undefined;
  do {
    const page = await asg.send(new DescribeAutoScalingGroupsCommand({ Filters: filters, NextToken: token }));
    groups.push(...(page.AutoScalingGroups ?? []));
    token = page.NextToken;
  } while (token);
  return groups;
}

/**
 * Stop: each tagged group with capacity keeps its desired/min/max in a tag and goes to 0 (min and
 * desired; max stays). Start: each group with a saved capacity gets it back and the tag goes.
 */
export async function changeGroups(t: AwsSession & { tagKey: string; tagValue: string }, action: 'start' | 'stop'): Promise<string[]> {
  const asg = new AutoScalingClient({ region: t.region, credentials: t.credentials });
  try {
    const groups = await describeGroups(asg, [{ Name: `tag:${t.tagKey}`, Values: [t.tagValue] }]);
    const changed: string[] = [];
    for (const g of groups) {
      const name = g.AutoScalingGroupName!;
      const saved = decode(g.Tags?.find((x) => x.Key === SAVED_CAPACITY_TAG)?.Value);
      if (action === 'stop' && (g.DesiredCapacity ?? 0) > 0) {
        await asg.send(
          new CreateOrUpdateTagsCommand({
            Tags: [{ ResourceId: name, ResourceType: 'auto-scaling-group', Key: SAVED_CAPACITY_TAG, Value: encode(g), PropagateAtLaunch: false }],
          }),
        );
        await asg.send(new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: name, MinSize: 0, DesiredCapacity: 0 }));
        changed.push(name);
      } else if (action === 'start' && saved) {
        await asg.send(
          new UpdateAutoScalingGroupCommand({ AutoScalingGroupName: name, MinSize: saved.min, MaxSize: saved.max, DesiredCapacity: saved.desired }),
        );
        await asg.send(new DeleteTagsCommand({ Tags: [{ ResourceId: name, ResourceType: 'auto-scaling-group', Key: SAVED_CAPACITY_TAG }] }));
        changed.push(name);
      }
    }
    return changed;
  } finally {
    asg.destroy();
  }
}

/** The capacity a group runs with when started: its saved one while it sleeps, else its current one. */
export function runningCapacity(g: AutoScalingGroup) {
  const saved = decode(g.Tags?.find((x) => x.Key === SAVED_CAPACITY_TAG)?.Value);
  return saved
    ? { desiredCapacity: saved.desired, minSize: saved.min, maxSize: saved.max }
    : { desiredCapacity: g.DesiredCapacity ?? 0, minSize: g.MinSize ?? 0, maxSize: g.MaxSize ?? 0 };
}
