import { AwsError, ec2Answer, items, list, matchesTagFilter, structs, type Answer, type Params } from './protocol.js';
import type { StandinInstance, StandinWorld } from './state.js';

const codes: Record<StandinInstance['state'], number> = { pending: 0, running: 16, stopping: 64, stopped: 80, terminated: 48 };
const tagSet = (tags: Record<string, string>) => items(Object.entries(tags).map(([key, value]) => ({ key, value })));

function filtered(w: StandinWorld, region: string, p: Params) {
  const ids = list(p, 'InstanceId');
  const filters = structs(p, 'Filter').map((f) => ({ name: f.Name ?? '', values: list(f, 'Value') }));
  return w.instances.filter((i) => {
    if (i.region !== region || (ids.length && !ids.includes(i.id))) return false;
    return filters.every((f) => {
      const byTag = matchesTagFilter(i.tags, f.name, f.values);
      if (byTag !== undefined) return byTag;
      if (f.name === 'instance-state-name') return f.values.includes(i.state);
      if (f.name === 'instance-id') return f.values.includes(i.id);
      if (f.name === 'instance-type') return f.values.includes(i.type);
      throw new AwsError(400, 'InvalidParameterValue', `The filter '${f.name}' is invalid`);
    });
  });
}

function instanceXml(w: StandinWorld, i: StandinInstance) {
  return {
    instanceId: i.id,
    imageId: 'ami-0c55b159cbfafe1f0',
    instanceState: { code: codes[i.state], name: i.state },
    privateDnsName: `ip-10-0-0-${(i.id.charCodeAt(i.id.length - 1) % 200) + 10}.${i.region}.compute.internal`,
    instanceType: i.type,
    launchTime: '2026-01-05T09:00:00.000Z',
    placement: { availabilityZone: `${i.region}a`, tenancy: 'default' },
    monitoring: { state: 'disabled' },
    architecture: 'x86_64',
    rootDeviceType: 'ebs',
    rootDeviceName: '/dev/xvda',
    blockDeviceMapping: items(
      i.volumes.map((v, n) => ({
        deviceName: n ? `/dev/sd${String.fromCharCode(98 + n)}` : '/dev/xvda',
        ebs: { volumeId: v.id, status: 'attached', attachTime: '2026-01-05T09:00:01.000Z', deleteOnTermination: true },
      })),
    ),
    virtualizationType: 'hvm',
    tagSet: Object.keys(i.tags).length ? tagSet(i.tags) : undefined,
    hypervisor: 'xen',
    ownerId: w.accountId,
  };
}

function changeState(w: StandinWorld, region: string, p: Params, to: 'running' | 'stopped') {
  const ids = list(p, 'InstanceId');
  const found = ids.map((id) => {
    const i = w.instances.find((x) => x.id === id && x.region === region);
    if (!i) throw new AwsError(400, 'InvalidInstanceID.NotFound', `The instance ID '${id}' does not exist`);
    return i;
  });
  return items(
    found.map((i) => {
      const previous = i.state;
      // the transition is instant here; the answer shows the in-between state as AWS does
      if (i.state !== 'terminated') i.state = to;
      const current = previous === to ? to : to === 'running' ? 'pending' : 'stopping';
      return { instanceId: i.id, currentState: { code: codes[current], name: current }, previousState: { code: codes[previous], name: previous } };
    }),
  );
}

function retag(w: StandinWorld, p: Params, add: boolean) {
  const resources = list(p, 'ResourceId');
  const tags = structs(p, 'Tag');
  for (const id of resources) {
    const i = w.instances.find((x) => x.id === id);
    if (!i) throw new AwsError(400, 'InvalidID', `The ID '${id}' is not valid`);
    for (const t of tags) {
      if (add) i.tags[t.Key!] = t.Value ?? '';
      else if (t.Value === undefined || i.tags[t.Key!] === t.Value) delete i.tags[t.Key!];
    }
  }
  return { return: true };
}

/** EC2 (its own query protocol): instances, volumes, tags, start/stop. */
export function ec2(w: StandinWorld, region: string, action: string, p: Params): Answer {
  switch (action) {
    case 'DescribeInstances': {
      const all = filtered(w, region, p).filter((i) => i.state !== 'terminated' || p['Filter.1.Name']);
      const max = p.MaxResults ? Number(p.MaxResults) : all.length || 1;
      const start = p.NextToken ? Number(Buffer.from(p.NextToken, 'base64').toString()) : 0;
      const page = all.slice(start, start + max);
      const next = start + max < all.length ? Buffer.from(String(start + max)).toString('base64') : undefined;
      return ec2Answer(action, {
        reservationSet: items(
          page.map((i) => ({ reservationId: `r-${i.id.slice(2)}`, ownerId: w.accountId, groupSet: '', instancesSet: items([instanceXml(w, i)]) })),
        ),
        nextToken: next,
      });
    }
    case 'DescribeVolumes': {
      const ids = list(p, 'VolumeId');
      const vols = w.instances
        .filter((i) => i.region === region)
        .flatMap((i) => i.volumes.map((v) => ({ v, i })))
        .filter(({ v }) => !ids.length || ids.includes(v.id));
      return ec2Answer(action, {
        volumeSet: items(
          vols.map(({ v, i }) => ({
            volumeId: v.id,
            size: v.sizeGb,
            snapshotId: '',
            availabilityZone: `${region}a`,
            status: 'in-use',
            createTime: '2026-01-05T09:00:00.000Z',
            attachmentSet: items([
              { volumeId: v.id, instanceId: i.id, device: '/dev/xvda', status: 'attached', attachTime: '2026-01-05T09:00:01.000Z', deleteOnTermination: true },
            ]),
            volumeType: v.type,
            encrypted: false,
            multiAttachEnabled: false,
          })),
        ),
      });
    }
    case 'StartInstances':
      return ec2Answer(action, { instancesSet: changeState(w, region, p, 'running') });
    case 'StopInstances':
      return ec2Answer(action, { instancesSet: changeState(w, region, p, 'stopped') });
    case 'CreateTags':
      return ec2Answer(action, retag(w, p, true));
    case 'DeleteTags':
      return ec2Answer(action, retag(w, p, false));
    default:
      throw new AwsError(400, 'InvalidAction', `The action ${action} is not valid for this web service.`);
  }
}
