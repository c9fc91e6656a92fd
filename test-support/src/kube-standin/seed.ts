import crypto from 'node:crypto';
import type { Controllers } from './controllers.js';
import { parseQuantity } from './quantity.js';
import { R } from './resources.js';
import type { KubeState } from './state.js';

export interface SeedOptions {
  nodes?: number;
  /** Namespaces the deployments spread over (default 10: team-1...). */
  namespaces?: number;
  deployments: number;
  /** Pods over all deployments (replicas spread evenly). */
  pods: number;
  /** Label and annotate the deployments as Gantry's services module deploys them (its dashboard rows list them). */
  asGantryServices?: boolean;
}

export function seedNode(state: KubeState, name: string, index: number, o: { cpu?: string; memory?: string } = {}) {
  const now = state.now();
  const cpu = o.cpu ?? '8';
  const memKi = Math.round(parseQuantity(o.memory ?? '32Gi') / 1024);
  const ip = `10.0.${Math.floor(index / 250)}.${10 + (index % 250)}`;
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
    reason,
    message,
  });
  return state.create(
    R.nodes,
    undefined,
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        labels: {
          'kubernetes.io/hostname': name,
          'kubernetes.io/os': 'linux',
          'kubernetes.io/arch': 'amd64',
          'beta.kubernetes.io/os': 'linux',
          'beta.kubernetes.io/arch': 'amd64',
          'node.kubernetes.io/instance-type': 'standin.large',
        },
        annotations: { 'node.alpha.kubernetes.io/ttl': '0', 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
      },
      spec: { podCIDR: `10.244.${index}.0/24`, podCIDRs: [`10.244.${index}.0/24`], providerID: `standin://${name}` },
      status: {
        capacity: { cpu, memory: `${memKi}Ki`, pods: '110', 'ephemeral-storage': '102626232Ki', 'hugepages-2Mi': '0' },
        allocatable: {
          cpu: `${Math.round(parseQuantity(cpu) * 1000) - 100}m`,
          memory: `${memKi - 262144}Ki`,
          pods: '110',
          'ephemeral-storage': '94580335255',
          'hugepages-2Mi': '0',
        },
        conditions: [
          cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
          cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
          cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
          cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
        ],
        addresses: [
          { type: 'InternalIP', address: ip },
          { type: 'Hostname', address: name },
        ],
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        nodeInfo: {
          machineID: crypto.createHash('md5').update(name).digest('hex'),
          systemUUID: crypto.randomUUID(),
          bootID: crypto.randomUUID(),
          kernelVersion: '6.1.0-18-amd64',
          osImage: 'Debian GNU/Linux 12 (bookworm)',
          containerRuntimeVersion: 'containerd://1.7.13',
          kubeletVersion: 'v1.30.0',
          kubeProxyVersion: 'v1.30.0',
          operatingSystem: 'linux',
          architecture: 'amd64',
        },
        images: [],
      },
    },
    { manager: 'kubelet' },
  );
}

/** The bench cluster: namespaces, deployments with replicas summing to `pods`, all pods Running, no events. */
export function seedLarge(state: KubeState, controllers: Controllers, o: SeedOptions) {
  const nsCount = o.namespaces ?? 10;
  for (let i = 1; i <= nsCount; i++) {
    if (!state.store.get(R.namespaces, undefined, `team-${i}`))
      state.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `team-${i}` } }, { manager: 'kubectl' });
  }
  const base = Math.floor(o.pods / o.deployments);
  const extra = o.pods % o.deployments;
  for (let i = 0; i < o.deployments; i++) {
    const name = `svc-${i + 1}`;
    const labels = o.asGantryServices ? { app: name, 'app.kubernetes.io/managed-by': 'gantry', 'gantry.io/service': name } : { app: name };
    const annotations = o.asGantryServices
      ? { 'gantry.io/service-name': name, 'gantry.io/version': `1.${i % 7}.0`, 'gantry.io/deployed-at': state.now(), 'gantry.io/image-repository': name }
      : undefined;
    state.create(
      R.deployments,
      `team-${(i % nsCount) + 1}`,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, labels, ...(annotations ? { annotations } : {}) },
        spec: {
          replicas: base + (i < extra ? 1 : 0),
          selector: { matchLabels: { app: name } },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: 'app', image: `registry.local/${name}:1.${i % 7}.0`, resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
          },
        },
      },
      { manager: 'gantry' },
    );
  }
  controllers.reconcile(true);
  controllers.reconcile(true);
}
