import { describe, expect, it } from 'vitest';
import { isPodLogsKey, serviceKeys } from './keys';

describe('the refresh after a deploy or an undeploy', () => {
  const s = { clusterId: 'prod', namespace: 'team-a', name: 'api' };
  it('leaves a pod’s logs alone (the pod may be gone) and refreshes every other read of the service', () => {
    expect(isPodLogsKey(serviceKeys.podLogs('p1', s, 'api-7d4b9-x2k', false))).toBe(true);
    for (const read of ['status', 'pods', 'events', 'spec'])
      expect(isPodLogsKey([...serviceKeys.inCluster('p1', s.clusterId, s.namespace, s.name), read])).toBe(false);
  });
  it('tells logs from a namespace or a service that is called logs', () => {
    expect(isPodLogsKey([...serviceKeys.inCluster('p1', 'prod', 'logs', 'logs'), 'events'])).toBe(false);
    expect(isPodLogsKey(serviceKeys.podLogs('p1', { clusterId: 'logs', namespace: 'logs', name: 'logs' }, 'logs', true))).toBe(true);
  });
});
