import { AwsError, list, members, queryAnswer, structs, type Answer, type Params } from './protocol.js';
import { asgArn, type StandinAsg, type StandinWorld } from './state.js';

export const AUTOSCALING_NS = 'http://autoscaling.amazonaws.com/doc/2011-01-01/';

function groupXml(w: StandinWorld, g: StandinAsg) {
  return {
    AutoScalingGroupName: g.name,
    AutoScalingGroupARN: asgArn(w, g),
    LaunchTemplate: { LaunchTemplateId: `lt-0${g.name.length}a1b2c3d4e5f6a7b8`, LaunchTemplateName: `${g.name}-lt`, Version: '$Latest' },
    MinSize: g.minSize,
    MaxSize: g.maxSize,
    DesiredCapacity: g.desiredCapacity,
    DefaultCooldown: 300,
    AvailabilityZones: members([`${g.region}a`, `${g.region}b`]),
    HealthCheckType: 'EC2',
    HealthCheckGracePeriod: 300,
    Instances: members(
      Array.from({ length: g.desiredCapacity }, (_, n) => ({
        InstanceId: `i-0${g.name.length}${String(n).padStart(15, '0')}`.slice(0, 19),
        InstanceType: g.instanceType,
        AvailabilityZone: `${g.region}${n % 2 ? 'b' : 'a'}`,
        LifecycleState: 'InService',
        HealthStatus: 'Healthy',
        ProtectedFromScaleIn: false,
      })),
    ),
    CreatedTime: '2026-01-05T09:00:00.000Z',
    Tags: members(
      Object.entries(g.tags).map(([Key, Value]) => ({ ResourceId: g.name, ResourceType: 'auto-scaling-group', Key, Value, PropagateAtLaunch: true })),
    ),
    TerminationPolicies: members(['Default']),
    NewInstancesProtectedFromScaleIn: false,
    ServiceLinkedRoleARN: `arn:aws:iam::${w.accountId}:role/aws-service-role/autoscaling.amazonaws.com/AWSServiceRoleForAutoScaling`,
  };
}

const group = (w: StandinWorld, region: string, name: string | undefined) => {
  const g = w.asgs.find((x) => x.region === region && x.name === name);
  if (!g) throw new AwsError(400, 'ValidationError', `AutoScalingGroup name not found - AutoScalingGroup ${name} not found`);
  return g;
};

/** Auto Scaling (AWS query): groups, capacity updates, tags. */
export function autoscaling(w: StandinWorld, region: string, action: string, p: Params): Answer {
  switch (action) {
    case 'DescribeAutoScalingGroups': {
      const names = list(p, 'AutoScalingGroupNames');
      const filters = structs(p, 'Filters').map((f) => ({
        name: f.Name ?? '',
        values: Object.entries(f)
          .filter(([k]) => k.startsWith('Values.'))
          .map(([, v]) => v),
      }));
      const found = w.asgs.filter(
        (g) =>
          g.region === region &&
          (!names.length || names.includes(g.name)) &&
          filters.every((f) =>
            f.name.startsWith('tag:')
              ? f.values.includes(g.tags[f.name.slice(4)] ?? '\u0000')
              : f.name === 'tag-key'
                ? f.values.some((k) => k in g.tags)
                : true,
          ),
      );
      return queryAnswer(AUTOSCALING_NS, action, { AutoScalingGroups: members(found.map((g) => groupXml(w, g))) });
    }
    case 'UpdateAutoScalingGroup': {
      const g = group(w, region, p.AutoScalingGroupName);
      const next = {
        minSize: p.MinSize !== undefined ? Number(p.MinSize) : g.minSize,
        maxSize: p.MaxSize !== undefined ? Number(p.MaxSize) : g.maxSize,
        desiredCapacity: p.DesiredCapacity !== undefined ? Number(p.DesiredCapacity) : g.desiredCapacity,
      };
      if (next.desiredCapacity < next.minSize || next.desiredCapacity > next.maxSize)
        throw new AwsError(
          400,
          'ValidationError',
          `Desired capacity:${next.desiredCapacity} must be between the specified min size:${next.minSize} and max size:${next.maxSize}`,
        );
      Object.assign(g, next);
      return queryAnswer(AUTOSCALING_NS, action, null);
    }
    case 'CreateOrUpdateTags':
    case 'DeleteTags': {
      for (const t of structs(p, 'Tags')) {
        const g = group(w, region, t.ResourceId);
        if (action === 'CreateOrUpdateTags') g.tags[t.Key!] = t.Value ?? '';
        else delete g.tags[t.Key!];
      }
      return queryAnswer(AUTOSCALING_NS, action, null);
    }
    default:
      throw new AwsError(400, 'InvalidAction', `Could not find operation ${action} for version 2011-01-01`);
  }
}
