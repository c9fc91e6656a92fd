import crypto from 'node:crypto';
import { R, type ResourceDef } from './resources.js';
import { badRequest, invalid } from './status.js';
import type { KObj } from './store.js';

/** What the API server does to an object before storing it: identity, defaults, generation and validation. */

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export const nameSuffix = (n = 5) => Array.from(crypto.randomBytes(n), (b) => 'bcdfghjklmnpqrstvwxz2456789'[b % 27]).join('');

function defaultPodSpec(spec: KObj) {
  spec.restartPolicy ??= 'Always';
  spec.terminationGracePeriodSeconds ??= 30;
  spec.dnsPolicy ??= 'ClusterFirst';
  spec.securityContext ??= {};
  spec.schedulerName ??= 'default-scheduler';
  for (const c of spec.containers ?? []) {
    c.resources ??= {};
    c.terminationMessagePath ??= '/dev/termination-log';
    c.terminationMessagePolicy ??= 'File';
    c.imagePullPolicy ??= String(c.image ?? '').endsWith(':latest') || !String(c.image ?? '').includes(':') ? 'Always' : 'IfNotPresent';
    for (const p of c.ports ?? []) p.protocol ??= 'TCP';
  }
}

export interface PrepareContext {
  now: string;
  allocateClusterIp(): string;
}

export function prepare(def: ResourceDef, obj: KObj, old: KObj | undefined, ctx: PrepareContext): KObj {
  const md = (obj.metadata ??= {});
  if (!md.name && md.generateName && !old) md.name = `${md.generateName}${nameSuffix()}`;
  const causes: { field: string; message: string }[] = [];
  const name = String(md.name ?? '');
  if (!name) throw invalid(def.kind, def.group, '', [{ field: 'metadata.name', message: 'Required value: name or generateName is required' }]);
  const pattern = def === R.namespaces ? DNS1123_LABEL : DNS1123_SUBDOMAIN;
  if (!pattern.test(name) || name.length > (def === R.namespaces ? 63 : 253)) {
    causes.push({
      field: 'metadata.name',
      message: `Invalid value: "${name}": a lowercase RFC 1123 ${def === R.namespaces ? 'label' : 'subdomain'} must consist of lower case alphanumeric characters, '-'${def === R.namespaces ? '' : " or '.'"}, and must start and end with an alphanumeric character`,
    });
  }
  obj.apiVersion = def.group ? `${def.group}/${def.version}` : def.version;
  obj.kind = def.kind;
  md.uid = old?.metadata.uid ?? crypto.randomUUID();
  md.creationTimestamp = old?.metadata.creationTimestamp ?? ctx.now;
  if (old?.metadata.deletionTimestamp) md.deletionTimestamp = old.metadata.deletionTimestamp;
  if (!def.namespaced) delete md.namespace;
  if ([R.deployments, R.replicasets, R.hpas].includes(def)) {
    const specChanged = !old || JSON.stringify(old.spec) !== JSON.stringify(obj.spec);
    md.generation = (old?.metadata.generation ?? 0) + (specChanged ? 1 : 0);
  }

  switch (def) {
    case R.namespaces:
      md.labels = { ...md.labels, 'kubernetes.io/metadata.name': name };
      obj.spec = { finalizers: ['kubernetes'], ...obj.spec };
      obj.status = old?.status ?? { phase: 'Active' };
      break;
    case R.deployments: {
      const spec = (obj.spec ??= {});
      spec.replicas ??= 1;
      spec.revisionHistoryLimit ??= 10;
      spec.progressDeadlineSeconds ??= 600;
      spec.strategy ??= { type: 'RollingUpdate' };
      if (spec.strategy.type === 'RollingUpdate') spec.strategy.rollingUpdate ??= { maxUnavailable: '25%', maxSurge: '25%' };
      const tmpl = spec.template ?? {};
      if (!spec.selector) causes.push({ field: 'spec.selector', message: 'Required value' });
      else {
        const labels = tmpl.metadata?.labels ?? {};
        const ok = Object.entries(spec.selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
        if (!ok)
          causes.push({
            field: 'spec.template.metadata.labels',
            message: `Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``,
          });
      }
      if (!tmpl.spec?.containers?.length) causes.push({ field: 'spec.template.spec.containers', message: 'Required value' });
      else defaultPodSpec(tmpl.spec);
      tmpl.metadata ??= {};
      tmpl.metadata.creationTimestamp ??= null;
      obj.status = old?.status ?? {};
      break;
    }
    case R.replicasets:
      defaultPodSpec(obj.spec.template.spec);
      obj.status = old?.status ?? { replicas: 0 };
      break;
    case R.pods:
      if (!obj.spec?.containers?.length) causes.push({ field: 'spec.containers', message: 'Required value' });
      else defaultPodSpec(obj.spec);
      obj.status = old?.status ?? obj.status ?? { phase: 'Pending', qosClass: 'BestEffort' };
      break;
    case R.services: {
      const spec = (obj.spec ??= {});
      spec.type ??= 'ClusterIP';
      spec.sessionAffinity ??= 'None';
      spec.clusterIP = old?.spec.clusterIP ?? spec.clusterIP ?? ctx.allocateClusterIp();
      spec.clusterIPs = [spec.clusterIP];
      spec.ipFamilies ??= ['IPv4'];
      spec.ipFamilyPolicy ??= 'SingleStack';
      spec.internalTrafficPolicy ??= 'Cluster';
      for (const p of spec.ports ?? []) {
        p.protocol ??= 'TCP';
        p.targetPort ??= p.port;
      }
      obj.status = old?.status ?? { loadBalancer: {} };
      break;
    }
    case R.secrets: {
      obj.type ??= 'Opaque';
      if (obj.stringData) {
        obj.data = { ...obj.data };
        for (const [k, v] of Object.entries(obj.stringData)) obj.data[k] = Buffer.from(String(v)).toString('base64');
        delete obj.stringData;
      }
      if (obj.type === 'kubernetes.io/dockerconfigjson') {
        const raw = obj.data?.['.dockerconfigjson'];
        if (!raw) causes.push({ field: 'data[.dockerconfigjson]', message: 'Required value' });
        else {
          try {
            JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
          } catch {
            causes.push({ field: 'data[.dockerconfigjson]', message: 'Invalid value: "<secret contents redacted>": invalid character in .dockerconfigjson' });
          }
        }
      }
      if (old && old.type !== obj.type) causes.push({ field: 'type', message: `Invalid value: "${obj.type}": field is immutable` });
      break;
    }
    case R.hpas:
      obj.spec ??= {};
      obj.spec.minReplicas ??= 1;
      if (!obj.spec.scaleTargetRef?.name) causes.push({ field: 'spec.scaleTargetRef.name', message: 'Required value' });
      if (!obj.spec.maxReplicas) causes.push({ field: 'spec.maxReplicas', message: 'Invalid value: 0: must be greater than or equal to 1' });
      obj.status = old?.status ?? { currentReplicas: 0, desiredReplicas: 0 };
      break;
    case R.events:
      obj.count ??= 1;
      obj.firstTimestamp ??= ctx.now;
      obj.lastTimestamp ??= obj.firstTimestamp;
      break;
    case R.nodes:
      obj.status ??= old?.status ?? {};
      break;
  }
  if (causes.length) throw invalid(def.kind, def.group, name, causes);
  return obj;
}

/** Checks an apply/create body names the kind the URL does. */
export function checkKind(def: ResourceDef, body: KObj, requireBoth: boolean) {
  const want = def.group ? `${def.group}/${def.version}` : def.version;
  if ((requireBoth || body.kind !== undefined) && body.kind !== def.kind)
    throw badRequest(`the body of the request kind "${body.kind ?? ''}" does not match the URL's ${def.kind}`);
  if ((requireBoth || body.apiVersion !== undefined) && body.apiVersion !== want)
    throw badRequest(`the API version in the data (${body.apiVersion ?? ''}) does not match the expected API version (${want})`);
}
