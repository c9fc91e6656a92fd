import crypto from 'node:crypto';
import { nameSuffix } from './kinds.js';
import type { MetricsBook } from './metrics.js';
import { parseQuantity } from './quantity.js';
import { R } from './resources.js';
import type { KubeState } from './state.js';
import type { KObj } from './store.js';

/**
 * Just enough of kube-controller-manager, the scheduler and the kubelet for a dashboard: Deployment ->
 * ReplicaSet -> Pods with owner references, pods starting after a tick (or crash-looping when the image
 * says `fail`, or unschedulable when it says `pending`), garbage collection of orphans, namespace
 * termination, HPA status and scaling to its bounds or CPU target. Reconciling runs after every change, coalesced.
 */

export interface ControllerOptions {
  tickMs: number;
}

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const templateHash = (template: unknown) => {
  const h = crypto.createHash('sha256').update(JSON.stringify(template)).digest();
  return Array.from(h.subarray(0, 10), (b) => ALPHABET[b % 27]).join('');
};

const setCondition = (
  list: KObj[] | undefined,
  c: { type: string; status: string; reason: string; message: string },
  now: string,
  withUpdate = false,
): KObj[] => {
  const prev = (list ?? []).find((x) => x.type === c.type);
  const same = prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message;
  const next = same
    ? prev
    : {
        type: c.type,
        status: c.status,
        ...(withUpdate ? { lastUpdateTime: now } : {}),
        lastTransitionTime: prev && prev.status === c.status ? prev.lastTransitionTime : now,
        reason: c.reason,
        message: c.message,
      };
  return [...(list ?? []).filter((x) => x.type !== c.type), next];
};

const ownedBy = (o: KObj, owner: KObj) => (o.metadata.ownerReferences ?? []).some((r: KObj) => r.uid === owner.metadata.uid);
const isTerminating = (p: KObj) => !!p.metadata.deletionTimestamp;
const podReady = (p: KObj) => (p.status?.conditions ?? []).some((c: KObj) => c.type === 'Ready' && c.status === 'True');
const podActive = (p: KObj) => !isTerminating(p) && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded';

export class Controllers {
  private scheduled = false;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private nodeCursor = 0;
  private readonly finalizing = new Set<string>();
  private podIp = 2;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly s: KubeState,
    private readonly metrics: MetricsBook,
    private readonly o: ControllerOptions,
  ) {
    this.unsubscribe = s.store.subscribe((r) => {
      if (r.def !== R.events) this.kick();
    });
  }

  stop() {
    this.stopped = true;
    this.unsubscribe();
    for (const t of this.timers) clearTimeout(t);
  }

  kick() {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (!this.stopped) this.reconcile();
    });
  }

  private later(fn: () => void, ms = this.o.tickMs) {
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.timers.add(t);
  }

  /** One pass of every controller; `instant` starts new pods at once and records no events (the seed). */
  reconcile(instant = false) {
    this.namespaces();
    this.garbageCollect();
    for (const d of this.s.store.list(R.deployments)) this.deployment(d, instant);
    for (const rs of this.s.store.list(R.replicasets)) this.replicaSet(rs, instant);
    for (const d of this.s.store.list(R.deployments)) this.deploymentStatus(d);
    for (const h of this.s.store.list(R.hpas)) this.hpa(h);
  }

  private namespaces() {
    for (const ns of this.s.store.list(R.namespaces)) {
      if (ns.status?.phase !== 'Terminating' || this.finalizing.has(ns.metadata.uid)) continue;
      this.finalizing.add(ns.metadata.uid);
      this.later(() => {
        for (const def of [R.hpas, R.deployments, R.replicasets, R.pods, R.services, R.secrets, R.configmaps, R.events]) {
          for (const o of this.s.store.list(def, ns.metadata.name)) this.s.remove(def, o.metadata.namespace, o.metadata.name);
        }
        if (this.s.store.get(R.namespaces, undefined, ns.metadata.name)) this.s.remove(R.namespaces, undefined, ns.metadata.name);
      });
    }
  }

  /** Background cascading deletion: ReplicaSets whose Deployment is gone, Pods whose ReplicaSet is gone. */
  private garbageCollect() {
    const alive = (kind: string, ns: string, uid: string) => {
      const def = kind === 'Deployment' ? R.deployments : R.replicasets;
      return this.s.store.list(def, ns).some((o) => o.metadata.uid === uid);
    };
    for (const def of [R.replicasets, R.pods]) {
      for (const o of this.s.store.list(def)) {
        const owner = (o.metadata.ownerReferences ?? []).find((r: KObj) => r.controller);
        if (owner && !alive(owner.kind, o.metadata.namespace, owner.uid)) this.s.remove(def, o.metadata.namespace, o.metadata.name);
      }
    }
  }

  private deployment(d: KObj, instant: boolean) {
    const ns = d.metadata.namespace;
    const hash = templateHash(d.spec.template);
    const name = `${d.metadata.name}-${hash}`;
    const owned = this.s.store.list(R.replicasets, ns).filter((rs) => ownedBy(rs, d));
    const revision = Math.max(0, ...owned.map((rs) => Number(rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? 0)));
    let current = owned.find((rs) => rs.metadata.name === name);
    const desired = d.spec.replicas ?? 1;
    const scaleEvent = (rs: KObj, from: number, to: number) => {
      if (!instant)
        this.s.recordEvent(
          d,
          'Normal',
          'ScalingReplicaSet',
          `Scaled ${to > from ? 'up' : 'down'} replica set ${rs.metadata.name} from ${from} to ${to}`,
          'deployment-controller',
        );
    };
    if (!current) {
      const labels = { ...d.spec.template.metadata?.labels, 'pod-template-hash': hash };
      current = this.s.writeRaw(R.replicasets, {
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: {
          name,
          namespace: ns,
          uid: crypto.randomUUID(),
          creationTimestamp: this.s.now(),
          generation: 1,
          labels,
          annotations: {
            'deployment.kubernetes.io/desired-replicas': String(desired),
            'deployment.kubernetes.io/max-replicas': String(desired + Math.ceil(desired / 4)),
            'deployment.kubernetes.io/revision': String(revision + 1),
          },
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name, uid: d.metadata.uid, controller: true, blockOwnerDeletion: true },
          ],
        },
        spec: {
          replicas: desired,
          selector: { matchLabels: { ...d.spec.selector.matchLabels, 'pod-template-hash': hash } },
          template: { ...structuredClone(d.spec.template), metadata: { ...d.spec.template.metadata, labels } },
        },
        status: { replicas: 0 },
      });
      scaleEvent(current, 0, desired);
    } else if (current.spec.replicas !== desired) {
      scaleEvent(current, current.spec.replicas, desired);
      current = this.s.writeRaw(R.replicasets, {
        ...current,
        metadata: {
          ...current.metadata,
          generation: current.metadata.generation + 1,
          annotations: { ...current.metadata.annotations, 'deployment.kubernetes.io/desired-replicas': String(desired) },
        },
        spec: { ...current.spec, replicas: desired },
      });
    }
    // rollouts are instant (old ReplicaSets go to 0 at once), enough for a dashboard's history
    for (const rs of owned) {
      if (rs.metadata.name === name || rs.spec.replicas === 0) continue;
      scaleEvent(rs, rs.spec.replicas, 0);
      this.s.writeRaw(R.replicasets, { ...rs, metadata: { ...rs.metadata, generation: rs.metadata.generation + 1 }, spec: { ...rs.spec, replicas: 0 } });
    }
  }

  private replicaSet(rs: KObj, instant: boolean) {
    const ns = rs.metadata.namespace;
    const pods = this.s.store.list(R.pods, ns).filter((p) => ownedBy(p, rs));
    const active = pods.filter(podActive);
    const want = rs.spec.replicas ?? 1;
    for (let i = active.length; i < want; i++) this.createPod(rs, instant);
    for (const p of active.slice(want).reverse()) this.deletePod(p);
    const now = this.s.store.list(R.pods, ns).filter((p) => ownedBy(p, rs) && podActive(p));
    const ready = now.filter(podReady).length;
    this.s.writeStatus(R.replicasets, rs, {
      replicas: now.length,
      fullyLabeledReplicas: now.length,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: rs.metadata.generation,
    });
  }

  private nodesForScheduling(): KObj[] {
    return this.s.store
      .list(R.nodes)
      .filter((n) => !n.spec?.unschedulable && (n.status?.conditions ?? []).some((c: KObj) => c.type === 'Ready' && c.status === 'True'));
  }

  private createPod(rs: KObj, instant: boolean) {
    const tmpl = rs.spec.template;
    const now = this.s.now();
    const name = `${rs.metadata.name}-${nameSuffix()}`;
    const pod: KObj = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        generateName: `${rs.metadata.name}-`,
        namespace: rs.metadata.namespace,
        uid: crypto.randomUUID(),
        creationTimestamp: now,
        labels: { ...tmpl.metadata?.labels },
        ...(tmpl.metadata?.annotations ? { annotations: { ...tmpl.metadata.annotations } } : {}),
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name, uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true },
        ],
      },
      spec: {
        ...structuredClone(tmpl.spec),
        serviceAccountName: tmpl.spec.serviceAccountName ?? 'default',
        serviceAccount: tmpl.spec.serviceAccountName ?? 'default',
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
        priority: 0,
      },
      status: { phase: 'Pending', qosClass: qosClass(tmpl.spec.containers) },
    };
    this.schedule(pod, instant);
  }

  /** The scheduler and kubelet for a new pod (also one created directly through the API). */
  schedule(pod: KObj, instant: boolean) {
    const images: string[] = pod.spec.containers.map((c: KObj) => String(c.image ?? ''));
    const nodes = this.nodesForScheduling();
    const now = this.s.now();
    if (!nodes.length || images.some((i) => i.includes('pending'))) {
      const msg = `0/${this.s.store.list(R.nodes).length} nodes are available: ${this.s.store.list(R.nodes).length} Insufficient cpu. preemption: 0/${this.s.store.list(R.nodes).length} nodes are available: ${this.s.store.list(R.nodes).length} No preemption victims found for incoming pod.`;
      pod.status = {
        ...pod.status,
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: now, reason: 'Unschedulable', message: msg }],
      };
      const stored = this.s.writeRaw(R.pods, pod);
      if (!instant) this.s.recordEvent(stored, 'Warning', 'FailedScheduling', msg, 'default-scheduler');
      return;
    }
    const node = nodes[this.nodeCursor++ % nodes.length];
    pod.spec.nodeName = node.metadata.name;
    const hostIP = node.status.addresses.find((a: KObj) => a.type === 'InternalIP').address;
    pod.status = {
      ...pod.status,
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now }],
      hostIP,
      hostIPs: [{ ip: hostIP }],
      startTime: now,
      containerStatuses: pod.spec.containers.map((c: KObj) => ({
        name: c.name,
        image: c.image,
        imageID: '',
        ready: false,
        restartCount: 0,
        started: false,
        lastState: {},
        state: { waiting: { reason: 'ContainerCreating' } },
      })),
    };
    const stored = this.s.writeRaw(R.pods, pod);
    if (instant) return this.start(stored, true);
    this.s.recordEvent(
      stored,
      'Normal',
      'Scheduled',
      `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node.metadata.name}`,
      'default-scheduler',
    );
    this.later(() => {
      const p = this.s.store.get(R.pods, pod.metadata.namespace, pod.metadata.name);
      if (p && p.metadata.uid === pod.metadata.uid && !isTerminating(p)) this.start(p, false);
    });
  }

  private start(pod: KObj, instant: boolean) {
    const now = this.s.now();
    const host = pod.spec.nodeName;
    const podIP = `10.244.${(this.podIp >> 8) & 255}.${this.podIp++ & 255}`;
    const statuses = pod.spec.containers.map((c: KObj) => {
      const fails = String(c.image).includes('fail');
      const containerID = `containerd://${crypto.randomBytes(32).toString('hex')}`;
      const base = {
        name: c.name,
        image: c.image,
        imageID: `${c.image.includes('/') ? '' : 'docker.io/library/'}${c.image.split(':')[0]}@sha256:${crypto.createHash('sha256').update(c.image).digest('hex')}`,
        containerID,
      };
      const env = (c.env ?? []).map((e: KObj) => `${e.name}=${e.value ?? '<from ' + Object.keys(e.valueFrom ?? {})[0] + '>'}`);
      const startLines = [
        `starting ${c.name} from image ${c.image}`,
        ...env.map((e: string) => `env ${e}`),
        ...(c.command || c.args ? [`command: ${[...(c.command ?? []), ...(c.args ?? [])].join(' ')}`] : []),
      ];
      if (!instant) {
        const fp = `spec.containers{${c.name}}`;
        this.s.recordEvent(pod, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`, 'kubelet', host, fp);
        this.s.recordEvent(pod, 'Normal', 'Created', `Created container ${c.name}`, 'kubelet', host, fp);
        this.s.recordEvent(pod, 'Normal', 'Started', `Started container ${c.name}`, 'kubelet', host, fp);
      }
      if (fails) {
        this.s.logs.start(pod.metadata.uid, c.name, [...startLines, `fatal: ${c.name} exited with code 1 (image ${c.image})`]);
        this.s.logs.start(pod.metadata.uid, c.name, [...startLines, `fatal: ${c.name} exited with code 1 (image ${c.image})`]);
        if (!instant)
          this.s.recordEvent(
            pod,
            'Warning',
            'BackOff',
            `Back-off restarting failed container ${c.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
            'kubelet',
            host,
            `spec.containers{${c.name}}`,
          );
        return {
          ...base,
          ready: false,
          started: false,
          restartCount: 1,
          state: {
            waiting: {
              reason: 'CrashLoopBackOff',
              message: `back-off 10s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
            },
          },
          lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: now, finishedAt: now, containerID } },
        };
      }
      this.s.logs.start(pod.metadata.uid, c.name, [...startLines, `${c.name} is ready`]);
      return { ...base, ready: true, started: true, restartCount: 0, state: { running: { startedAt: now } }, lastState: {} };
    });
    const notReady = statuses.filter((c: KObj) => !c.ready).map((c: KObj) => c.name);
    const readyCond = notReady.length
      ? { status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: [${notReady.join(' ')}]` }
      : { status: 'True' };
    const cond = (type: string, extra: KObj = { status: 'True' }) => ({ type, ...extra, lastProbeTime: null, lastTransitionTime: now });
    this.s.writeRaw(R.pods, {
      ...pod,
      metadata: { ...pod.metadata },
      status: {
        ...pod.status,
        phase: 'Running',
        podIP,
        podIPs: [{ ip: podIP }],
        conditions: [
          cond('PodReadyToStartContainers'),
          cond('Initialized'),
          cond('Ready', readyCond),
          cond('ContainersReady', readyCond),
          cond('PodScheduled'),
        ],
        containerStatuses: statuses,
      },
    });
  }

  deletePod(p: KObj) {
    this.s.remove(R.pods, p.metadata.namespace, p.metadata.name);
  }

  /** Makes a pod fail: CrashLoopBackOff (phase stays Running, as with restartPolicy Always) or phase Failed. */
  failPod(pod: KObj, o: { crashLoop?: boolean; message?: string; reason?: string }) {
    const now = this.s.now();
    const message = o.message ?? 'container exited with code 1';
    const statuses = (pod.status.containerStatuses ?? []).map((c: KObj) => ({
      ...c,
      ready: false,
      started: false,
      restartCount: (c.restartCount ?? 0) + (o.crashLoop === false ? 0 : 1),
      state:
        o.crashLoop === false
          ? {
              terminated: {
                exitCode: 1,
                reason: o.reason ?? 'Error',
                message,
                startedAt: c.state?.running?.startedAt ?? now,
                finishedAt: now,
                containerID: c.containerID,
              },
            }
          : {
              waiting: {
                reason: 'CrashLoopBackOff',
                message: `back-off 10s restarting failed container=${c.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
              },
            },
      lastState:
        o.crashLoop === false
          ? c.lastState
          : {
              terminated: {
                exitCode: 1,
                reason: o.reason ?? 'Error',
                message,
                startedAt: c.state?.running?.startedAt ?? now,
                finishedAt: now,
                containerID: c.containerID,
              },
            },
    }));
    for (const c of statuses) this.s.logs.append(pod.metadata.uid, c.name, `fatal: ${message}`);
    const names = statuses.map((c: KObj) => c.name).join(' ');
    const conditions = (pod.status.conditions ?? []).map((c: KObj) =>
      c.type === 'Ready' || c.type === 'ContainersReady'
        ? {
            ...c,
            status: 'False',
            reason: o.crashLoop === false ? 'PodFailed' : 'ContainersNotReady',
            message: `containers with unready status: [${names}]`,
            lastTransitionTime: now,
          }
        : c,
    );
    const stored = this.s.writeRaw(R.pods, {
      ...pod,
      metadata: { ...pod.metadata },
      status: {
        ...pod.status,
        phase: o.crashLoop === false ? 'Failed' : 'Running',
        conditions,
        containerStatuses: statuses,
        ...(o.crashLoop === false ? { reason: o.reason, message } : {}),
      },
    });
    for (const c of statuses) {
      this.s.recordEvent(
        stored,
        'Warning',
        o.crashLoop === false ? 'Failed' : 'BackOff',
        o.crashLoop === false
          ? `Error: ${message}`
          : `Back-off restarting failed container ${c.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
        'kubelet',
        pod.spec.nodeName,
        `spec.containers{${c.name}}`,
      );
    }
  }

  private deploymentStatus(d: KObj) {
    const ns = d.metadata.namespace;
    const rss = this.s.store.list(R.replicasets, ns).filter((rs) => ownedBy(rs, d));
    const current = rss.find((rs) => rs.metadata.name === `${d.metadata.name}-${templateHash(d.spec.template)}`);
    const pods = this.s.store.list(R.pods, ns).filter((p) => podActive(p) && rss.some((rs) => ownedBy(p, rs)));
    const updated = current ? pods.filter((p) => ownedBy(p, current)) : [];
    const ready = pods.filter(podReady).length;
    const desired = d.spec.replicas ?? 1;
    const now = this.s.now();
    let conditions = setCondition(
      d.status?.conditions,
      ready >= desired
        ? { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }
        : { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.' },
      now,
      true,
    );
    conditions = setCondition(
      conditions,
      updated.length >= desired && ready >= desired && pods.length === desired
        ? {
            type: 'Progressing',
            status: 'True',
            reason: 'NewReplicaSetAvailable',
            message: `ReplicaSet "${current?.metadata.name}" has successfully progressed.`,
          }
        : { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', message: `ReplicaSet "${current?.metadata.name}" is progressing.` },
      now,
      true,
    );
    const status: KObj = {
      observedGeneration: d.metadata.generation,
      replicas: pods.length,
      updatedReplicas: updated.length,
      readyReplicas: ready,
      availableReplicas: ready,
      ...(desired - ready > 0 ? { unavailableReplicas: desired - ready } : {}),
      conditions,
    };
    if (!ready) delete status.readyReplicas;
    if (!ready) delete status.availableReplicas;
    this.s.writeStatus(R.deployments, d, status);
  }

  private hpa(h: KObj) {
    const now = this.s.now();
    const ns = h.metadata.namespace;
    const ref = h.spec.scaleTargetRef;
    const target = ref.kind === 'Deployment' ? this.s.store.get(R.deployments, ns, ref.name) : undefined;
    let conditions = h.status?.conditions;
    if (!target) {
      conditions = setCondition(
        conditions,
        {
          type: 'AbleToScale',
          status: 'False',
          reason: 'FailedGetScale',
          message: `the HPA controller was unable to get the target's current scale: deployments/scale.apps "${ref.name}" not found`,
        },
        now,
      );
      this.s.writeStatus(R.hpas, h, { ...h.status, conditions });
      return;
    }
    const current = target.spec.replicas ?? 1;
    const min = h.spec.minReplicas ?? 1;
    const max = h.spec.maxReplicas;
    const cpuMetric = (h.spec.metrics ?? []).find(
      (m: KObj) => m.type === 'Resource' && m.resource?.name === 'cpu' && m.resource.target?.type === 'Utilization',
    );
    const selector = target.spec.selector.matchLabels ?? {};
    const pods = this.s.store
      .list(R.pods, ns)
      .filter((p) => p.status?.phase === 'Running' && Object.entries(selector).every(([k, v]) => p.metadata.labels?.[k] === v));
    let utilization: number | undefined;
    let desired = current;
    if (cpuMetric && this.metrics.enabled && pods.length) {
      const usage = pods.reduce((sum, p) => sum + this.metrics.podUsage(p).reduce((s, c) => s + c.cpu, 0), 0);
      const requests = pods.reduce((sum, p) => sum + p.spec.containers.reduce((s: number, c: KObj) => s + parseQuantity(c.resources?.requests?.cpu), 0), 0);
      if (requests > 0) {
        utilization = Math.round((usage / requests) * 100);
        const ratio = utilization / cpuMetric.resource.target.averageUtilization;
        if (Math.abs(ratio - 1) > 0.1) desired = Math.ceil(pods.length * ratio);
      }
    }
    const bounded = Math.min(max, Math.max(min, desired));
    conditions = setCondition(
      conditions,
      {
        type: 'AbleToScale',
        status: 'True',
        reason: bounded !== current ? 'SucceededRescale' : 'ReadyForNewScale',
        message: bounded !== current ? `the HPA controller was able to update the target scale to ${bounded}` : 'recommended size matches current size',
      },
      now,
    );
    conditions = setCondition(
      conditions,
      utilization !== undefined
        ? {
            type: 'ScalingActive',
            status: 'True',
            reason: 'ValidMetricFound',
            message: 'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)',
          }
        : cpuMetric
          ? {
              type: 'ScalingActive',
              status: 'False',
              reason: 'FailedGetResourceMetric',
              message:
                'the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API',
            }
          : { type: 'ScalingActive', status: 'True', reason: 'ValidMetricFound', message: 'the HPA was able to successfully calculate a replica count' },
      now,
    );
    conditions = setCondition(
      conditions,
      desired < min
        ? { type: 'ScalingLimited', status: 'True', reason: 'TooFewReplicas', message: 'the desired replica count is less than the minimum replica count' }
        : desired > max
          ? { type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas', message: 'the desired replica count is more than the maximum replica count' }
          : { type: 'ScalingLimited', status: 'False', reason: 'DesiredWithinRange', message: 'the desired count is within the acceptable range' },
      now,
    );
    let lastScaleTime = h.status?.lastScaleTime;
    if (bounded !== current) {
      const reason =
        current < min
          ? 'Current number of replicas below Spec.MinReplicas'
          : current > max
            ? 'Current number of replicas above Spec.MaxReplicas'
            : `cpu resource utilization (percentage of request) ${bounded > current ? 'above' : 'below'} target`;
      // the HPA writes the scale subresource, so its manager takes spec.replicas over (what a re-apply must respect)
      this.s.patch(R.deployments, ns, ref.name, JSON.stringify({ spec: { replicas: bounded } }), 'application/merge-patch+json', {
        manager: 'kube-controller-manager',
        subresource: 'scale',
        force: false,
      });
      this.s.recordEvent(h, 'Normal', 'SuccessfulRescale', `New size: ${bounded}; reason: ${reason}`, 'horizontal-pod-autoscaler');
      lastScaleTime = now;
    }
    this.s.writeStatus(R.hpas, h, {
      ...(lastScaleTime ? { lastScaleTime } : {}),
      currentReplicas: current,
      desiredReplicas: bounded,
      ...(utilization !== undefined
        ? {
            currentMetrics: [
              {
                type: 'Resource',
                resource: {
                  name: 'cpu',
                  current: {
                    averageValue: `${Math.round((pods.reduce((s, p) => s + this.metrics.podUsage(p).reduce((a, c) => a + c.cpu, 0), 0) / pods.length) * 1000)}m`,
                    averageUtilization: utilization,
                  },
                },
              },
            ],
          }
        : {}),
      conditions,
    });
  }
}

function qosClass(containers: KObj[]): string {
  const all = containers.map((c) => c.resources ?? {});
  if (all.every((r) => !r.requests && !r.limits)) return 'BestEffort';
  if (all.every((r) => r.limits?.cpu && r.limits?.memory && (!r.requests || (r.requests.cpu === r.limits.cpu && r.requests.memory === r.limits.memory))))
    return 'Guaranteed';
  return 'Burstable';
}
