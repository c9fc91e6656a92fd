import { ALL_RESOURCES, groupVersion, type ResourceDef } from './resources.js';

/** /version, /api, /apis and the per-group resource lists (legacy discovery; kubectl falls back to it). */

export const VERSION = {
  major: '1',
  minor: '30',
  gitVersion: 'v1.30.0-gantry-standin',
  gitCommit: '0000000000000000000000000000000000000000',
  gitTreeState: 'clean',
  buildDate: '2024-04-17T00:00:00Z',
  goVersion: 'go1.22.2',
  compiler: 'gc',
  platform: 'linux/amd64',
};

const served = (metrics: boolean) => ALL_RESOURCES.filter((d) => metrics || d.group !== 'metrics.k8s.io');

export function apiVersions(serverAddress: string) {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

export function apiGroupList(metrics: boolean) {
  const groups = [
    ...new Set(
      served(metrics)
        .filter((d) => d.group)
        .map((d) => `${d.group}/${d.version}`),
    ),
  ];
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: groups.map((gv) => {
      const [name, version] = gv.split('/');
      const v = { groupVersion: gv, version };
      return { name, versions: [v], preferredVersion: v };
    }),
  };
}

export function apiGroup(group: string, metrics: boolean) {
  const d = served(metrics).find((x) => x.group === group);
  if (!d) return undefined;
  const v = { groupVersion: groupVersion(d), version: d.version };
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: [v], preferredVersion: v };
}

const entry = (d: ResourceDef) => ({
  name: d.resource,
  singularName: d.singular,
  namespaced: d.namespaced,
  kind: d.kind,
  verbs: d.verbs,
  ...(d.shortNames ? { shortNames: d.shortNames } : {}),
  ...(d.categories ? { categories: d.categories } : {}),
});

export function resourceList(group: string, version: string, metrics: boolean) {
  const defs = served(metrics).filter((d) => d.group === group && d.version === version);
  if (!defs.length) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: group ? `${group}/${version}` : version,
    resources: defs.flatMap((d) => [
      entry(d),
      ...(d.subresources ?? []).map((s) => ({
        name: `${d.resource}/${s.name}`,
        singularName: '',
        namespaced: d.namespaced,
        ...(s.group ? { group: s.group, version: s.version } : {}),
        kind: s.kind,
        verbs: s.verbs,
      })),
    ]),
  };
}

/**
 * OpenAPI v3, only as far as kubectl reads it: its apply/create validation asks whether PATCH on a kind takes
 * the fieldValidation parameter, and with a yes leaves validation to the server (no client-side schemas needed).
 */
export function openApiV3Root(metrics: boolean) {
  const gvs = [
    ...new Set(
      served(metrics)
        .filter((d) => !d.virtual)
        .map((d) => (d.group ? `apis/${d.group}/${d.version}` : `api/${d.version}`)),
    ),
  ];
  return { paths: Object.fromEntries(gvs.map((gv) => [gv, { serverRelativeURL: `/openapi/v3/${gv}?hash=standin` }])) };
}

export function openApiV3Doc(gvPath: string, metrics: boolean) {
  const defs = served(metrics).filter((d) => !d.virtual && (d.group ? `apis/${d.group}/${d.version}` : `api/${d.version}`) === gvPath);
  if (!defs.length) return undefined;
  const param = (name: string) => ({ name, in: 'query', schema: { type: 'string', uniqueItems: true } });
  const paths = Object.fromEntries(
    defs.map((d) => {
      const p = `/${gvPath}${d.namespaced ? '/namespaces/{namespace}' : ''}/${d.resource}/{name}`;
      const gvk = { group: d.group, version: d.version, kind: d.kind };
      const op = (action: string) => ({
        operationId: `${action}${d.kind}`,
        parameters: [param('dryRun'), param('fieldManager'), param('fieldValidation'), ...(action === 'patch' ? [param('force')] : [])],
        'x-kubernetes-action': action,
        'x-kubernetes-group-version-kind': gvk,
        responses: { '200': { description: 'OK' } },
      });
      return [
        p,
        {
          get: { ...op('read'), parameters: [] },
          put: op('replace'),
          patch: op('patch'),
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string', uniqueItems: true } }],
        },
      ];
    }),
  );
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.30.0' }, paths, components: { schemas: {} } };
}
