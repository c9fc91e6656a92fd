import crypto from 'node:crypto';
import { parseQuantity } from './quantity.js';
import type { KObj } from './store.js';

export interface Usage {
  cpu: number;
  memory: number;
}
export interface UsageInput {
  cpu: string | number;
  memory: string | number;
}

/**
 * What metrics-server would report. Without an override a running container uses a steady amount derived from
 * its pod's name (20-60% of its CPU request, or 1m-250m without one; 16-256 MiB); a node uses what its pods use plus a system share.
 */
export class MetricsBook {
  enabled: boolean;
  private readonly pods = new Map<string, Record<string, Usage> | Usage>();
  private readonly nodes = new Map<string, Usage>();

  constructor(enabled: boolean) {
    this.enabled = enabled;
  }

  setPod(namespace: string, name: string, usage: UsageInput | Record<string, UsageInput>) {
    const toUsage = (u: UsageInput): Usage => ({ cpu: parseQuantity(u.cpu), memory: parseQuantity(u.memory) });
    const whole = 'cpu' in usage && 'memory' in usage && typeof (usage as UsageInput).cpu !== 'object';
    this.pods.set(
      `${namespace}/${name}`,
      whole ? toUsage(usage as UsageInput) : Object.fromEntries(Object.entries(usage as Record<string, UsageInput>).map(([k, v]) => [k, toUsage(v)])),
    );
  }

  setNode(name: string, usage: UsageInput) {
    this.nodes.set(name, { cpu: parseQuantity(usage.cpu), memory: parseQuantity(usage.memory) });
  }

  podUsage(pod: KObj): ({ name: string } & Usage)[] {
    const o = this.pods.get(`${pod.metadata.namespace}/${pod.metadata.name}`);
    const containers: KObj[] = pod.spec.containers;
    return containers.map((c) => {
      if (o && 'cpu' in o && typeof o.cpu === 'number')
        return { name: c.name, cpu: (o as Usage).cpu / containers.length, memory: (o as Usage).memory / containers.length };
      const own = o ? (o as Record<string, Usage>)[c.name] : undefined;
      if (own) return { name: c.name, ...own };
      const h = crypto.createHash('sha1').update(`${pod.metadata.name}/${c.name}`).digest();
      // with a CPU request, 20-60% of it: an HPA with a usual target then holds at its minimum unless a test sets usage
      const request = parseQuantity(c.resources?.requests?.cpu);
      const cpu = request > 0 ? request * (0.2 + (h[0] % 41) / 100) : (1 + ((h[0] * 256 + h[1]) % 250)) / 1000;
      return { name: c.name, cpu, memory: (16 + (h[2] % 241)) * 2 ** 20 };
    });
  }

  nodeUsage(node: KObj, podsOnNode: KObj[]): Usage {
    const o = this.nodes.get(node.metadata.name);
    if (o) return o;
    const sum = podsOnNode
      .flatMap((p) => this.podUsage(p))
      .reduce((a, c) => ({ cpu: a.cpu + c.cpu, memory: a.memory + c.memory }), { cpu: 0.1, memory: 512 * 2 ** 20 });
    return sum;
  }
}
