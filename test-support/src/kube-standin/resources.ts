/** The resource kinds the stand-in serves, as discovery describes them. */

export interface ResourceDef {
  group: string;
  version: string;
  resource: string;
  singular: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  /** Subresources listed in discovery (`pods/log`, `deployments/scale`, ...), with their kind. */
  subresources?: { name: string; kind: string; verbs: string[]; group?: string; version?: string }[];
  /** Served without being stored (reviews, metrics). */
  virtual?: boolean;
}

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const READ = ['get', 'list'];

const def = (d: Omit<ResourceDef, 'singular'> & { singular?: string }): ResourceDef => ({ singular: d.kind.toLowerCase(), ...d });

export const R = {
  namespaces: def({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    subresources: [{ name: 'status', kind: 'Namespace', verbs: ['get', 'patch', 'update'] }],
  }),
  nodes: def({
    group: '',
    version: 'v1',
    resource: 'nodes',
    kind: 'Node',
    namespaced: false,
    verbs: CRUD,
    shortNames: ['no'],
    subresources: [{ name: 'status', kind: 'Node', verbs: ['get', 'patch', 'update'] }],
  }),
  pods: def({
    group: '',
    version: 'v1',
    resource: 'pods',
    kind: 'Pod',
    namespaced: true,
    verbs: CRUD,
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      { name: 'log', kind: 'Pod', verbs: ['get'] },
      { name: 'status', kind: 'Pod', verbs: ['get', 'patch', 'update'] },
    ],
  }),
  services: def({
    group: '',
    version: 'v1',
    resource: 'services',
    kind: 'Service',
    namespaced: true,
    verbs: CRUD,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [{ name: 'status', kind: 'Service', verbs: ['get', 'patch', 'update'] }],
  }),
  secrets: def({ group: '', version: 'v1', resource: 'secrets', kind: 'Secret', namespaced: true, verbs: CRUD }),
  configmaps: def({ group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: CRUD, shortNames: ['cm'] }),
  events: def({ group: '', version: 'v1', resource: 'events', kind: 'Event', namespaced: true, verbs: CRUD, shortNames: ['ev'] }),
  deployments: def({
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    kind: 'Deployment',
    namespaced: true,
    verbs: CRUD,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [
      { name: 'scale', kind: 'Scale', group: 'autoscaling', version: 'v1', verbs: ['get', 'patch', 'update'] },
      { name: 'status', kind: 'Deployment', verbs: ['get', 'patch', 'update'] },
    ],
  }),
  replicasets: def({
    group: 'apps',
    version: 'v1',
    resource: 'replicasets',
    kind: 'ReplicaSet',
    namespaced: true,
    verbs: CRUD,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: [{ name: 'status', kind: 'ReplicaSet', verbs: ['get', 'patch', 'update'] }],
  }),
  hpas: def({
    group: 'autoscaling',
    version: 'v2',
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    verbs: CRUD,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: [{ name: 'status', kind: 'HorizontalPodAutoscaler', verbs: ['get', 'patch', 'update'] }],
  }),
  selfSubjectAccessReviews: def({
    group: 'authorization.k8s.io',
    version: 'v1',
    resource: 'selfsubjectaccessreviews',
    kind: 'SelfSubjectAccessReview',
    namespaced: false,
    verbs: ['create'],
    virtual: true,
  }),
  nodeMetrics: def({
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    resource: 'nodes',
    kind: 'NodeMetrics',
    singular: '',
    namespaced: false,
    verbs: READ,
    virtual: true,
  }),
  podMetrics: def({
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    resource: 'pods',
    kind: 'PodMetrics',
    singular: '',
    namespaced: true,
    verbs: READ,
    virtual: true,
  }),
};

export const ALL_RESOURCES: ResourceDef[] = Object.values(R);

export const groupVersion = (d: { group: string; version: string }) => (d.group ? `${d.group}/${d.version}` : d.version);

export function findResource(group: string, version: string, resource: string, metrics: boolean): ResourceDef | undefined {
  return ALL_RESOURCES.find((d) => d.group === group && d.version === version && d.resource === resource && (metrics || d.group !== 'metrics.k8s.io'));
}
