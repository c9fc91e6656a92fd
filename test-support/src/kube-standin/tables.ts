import { R, type ResourceDef } from './resources.js';
import type { KObj } from './store.js';

/** Server-side printing (meta.k8s.io/v1 Table), which `kubectl get` asks for: the columns the real server prints. */

type Col = [name: string, type: string, priority: number, cell: (o: KObj) => unknown];

export function humanDuration(fromIso: string | undefined): string {
  if (!fromIso) return '<unknown>';
  const s = Math.floor((Date.now() - Date.parse(fromIso)) / 1000);
  if (s < -1) return '<invalid>';
  if (s < 0) return '0s';
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 ? `${m}m${s % 60}s` : `${m}m`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 ? `${h}h${m % 60}m` : `${h}h`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (h < 24 * 8) return h % 24 ? `${d}d${h % 24}h` : `${d}d`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

const age: Col = ['Age', 'string', 0, (o) => humanDuration(o.metadata.creationTimestamp)];
const name: Col = ['Name', 'string', 0, (o) => o.metadata.name];

function podStatus(p: KObj): string {
  if (p.metadata.deletionTimestamp) return 'Terminating';
  const cs: KObj[] = p.status?.containerStatuses ?? [];
  for (const c of cs) {
    if (c.state?.waiting?.reason) return c.state.waiting.reason;
    if (c.state?.terminated) return c.state.terminated.reason ?? 'Error';
  }
  return p.status?.reason ?? p.status?.phase ?? 'Unknown';
}

const podReadyCount = (p: KObj) => `${(p.status?.containerStatuses ?? []).filter((c: KObj) => c.ready).length}/${p.spec.containers.length}`;
const restarts = (p: KObj) => (p.status?.containerStatuses ?? []).reduce((s: number, c: KObj) => s + (c.restartCount ?? 0), 0);

function hpaTargets(h: KObj): string {
  return (
    (h.spec.metrics ?? [])
      .map((m: KObj) => {
        if (m.type !== 'Resource') return '<unknown>';
        const cur = (h.status?.currentMetrics ?? []).find((c: KObj) => c.resource?.name === m.resource.name)?.resource?.current?.averageUtilization;
        return `${m.resource.name}: ${cur === undefined ? '<unknown>' : `${cur}%`}/${m.resource.target.averageUtilization}%`;
      })
      .join(', ') || '<none>'
  );
}

const COLUMNS = new Map<ResourceDef, Col[]>([
  [
    R.pods,
    [
      name,
      ['Ready', 'string', 0, podReadyCount],
      ['Status', 'string', 0, podStatus],
      ['Restarts', 'string', 0, (p) => String(restarts(p))],
      age,
      ['IP', 'string', 1, (p) => p.status?.podIP ?? '<none>'],
      ['Node', 'string', 1, (p) => p.spec.nodeName ?? '<none>'],
      ['Nominated Node', 'string', 1, () => '<none>'],
      ['Readiness Gates', 'string', 1, () => '<none>'],
    ],
  ],
  [
    R.deployments,
    [
      name,
      ['Ready', 'string', 0, (d) => `${d.status?.readyReplicas ?? 0}/${d.spec.replicas}`],
      ['Up-to-date', 'integer', 0, (d) => d.status?.updatedReplicas ?? 0],
      ['Available', 'integer', 0, (d) => d.status?.availableReplicas ?? 0],
      age,
      ['Containers', 'string', 1, (d) => d.spec.template.spec.containers.map((c: KObj) => c.name).join(',')],
      ['Images', 'string', 1, (d) => d.spec.template.spec.containers.map((c: KObj) => c.image).join(',')],
      [
        'Selector',
        'string',
        1,
        (d) =>
          Object.entries(d.spec.selector.matchLabels ?? {})
            .map(([k, v]) => `${k}=${v}`)
            .join(','),
      ],
    ],
  ],
  [
    R.replicasets,
    [
      name,
      ['Desired', 'integer', 0, (r) => r.spec.replicas],
      ['Current', 'integer', 0, (r) => r.status?.replicas ?? 0],
      ['Ready', 'integer', 0, (r) => r.status?.readyReplicas ?? 0],
      age,
    ],
  ],
  [
    R.nodes,
    [
      name,
      [
        'Status',
        'string',
        0,
        (n) =>
          ((n.status?.conditions ?? []).find((c: KObj) => c.type === 'Ready')?.status === 'True' ? 'Ready' : 'NotReady') +
          (n.spec?.unschedulable ? ',SchedulingDisabled' : ''),
      ],
      [
        'Roles',
        'string',
        0,
        (n) =>
          Object.keys(n.metadata.labels ?? {})
            .filter((k) => k.startsWith('node-role.kubernetes.io/'))
            .map((k) => k.split('/')[1])
            .join(',') || '<none>',
      ],
      age,
      ['Version', 'string', 0, (n) => n.status?.nodeInfo?.kubeletVersion ?? ''],
      ['Internal-IP', 'string', 1, (n) => (n.status?.addresses ?? []).find((a: KObj) => a.type === 'InternalIP')?.address ?? '<none>'],
    ],
  ],
  [R.namespaces, [name, ['Status', 'string', 0, (n) => n.status?.phase], age]],
  [
    R.services,
    [
      name,
      ['Type', 'string', 0, (s) => s.spec.type],
      ['Cluster-IP', 'string', 0, (s) => s.spec.clusterIP],
      ['External-IP', 'string', 0, () => '<none>'],
      [
        'Port(s)',
        'string',
        0,
        (s) => (s.spec.ports ?? []).map((p: KObj) => `${p.port}${p.nodePort ? `:${p.nodePort}` : ''}/${p.protocol}`).join(',') || '<none>',
      ],
      age,
    ],
  ],
  [R.secrets, [name, ['Type', 'string', 0, (s) => s.type], ['Data', 'string', 0, (s) => String(Object.keys(s.data ?? {}).length)], age]],
  [
    R.events,
    [
      ['Last Seen', 'string', 0, (e) => humanDuration(e.lastTimestamp ?? e.eventTime)],
      ['Type', 'string', 0, (e) => e.type],
      ['Reason', 'string', 0, (e) => e.reason],
      ['Object', 'string', 0, (e) => `${String(e.involvedObject.kind).toLowerCase()}/${e.involvedObject.name}`],
      ['Message', 'string', 0, (e) => e.message],
      ['Source', 'string', 1, (e) => e.source?.component ?? ''],
      ['First Seen', 'string', 1, (e) => humanDuration(e.firstTimestamp)],
      ['Count', 'string', 1, (e) => String(e.count ?? 1)],
      ['Name', 'string', 1, (e) => e.metadata.name],
    ],
  ],
  [
    R.hpas,
    [
      name,
      ['Reference', 'string', 0, (h) => `${h.spec.scaleTargetRef.kind}/${h.spec.scaleTargetRef.name}`],
      ['Targets', 'string', 0, hpaTargets],
      ['MinPods', 'string', 0, (h) => String(h.spec.minReplicas ?? 1)],
      ['MaxPods', 'string', 0, (h) => String(h.spec.maxReplicas)],
      ['Replicas', 'string', 0, (h) => String(h.status?.currentReplicas ?? 0)],
      age,
    ],
  ],
]);

export const wantsTable = (accept: string | undefined) => /as=Table/.test(accept ?? '');

export function toTable(def: ResourceDef, objects: KObj[], resourceVersion: string, includeObject: string | null) {
  const cols = COLUMNS.get(def) ?? [name, ['Created At', 'date', 0, (o) => o.metadata.creationTimestamp]];
  return {
    kind: 'Table',
    apiVersion: 'meta.k8s.io/v1',
    metadata: { resourceVersion },
    columnDefinitions: cols.map(([n, type, priority]) => ({ name: n, type, format: n === 'Name' ? 'name' : '', description: '', priority })),
    rows: objects.map((o) => ({
      cells: cols.map(([, , , cell]) => cell(o)),
      ...(includeObject === 'None'
        ? {}
        : { object: includeObject === 'Object' ? o : { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: o.metadata } }),
    })),
  };
}
