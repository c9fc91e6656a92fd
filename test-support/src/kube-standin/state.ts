import crypto from 'node:crypto';
import { mergePatch, jsonPatch, serverSideApply, trackUpdate } from './apply.js';
import { checkKind, prepare } from './kinds.js';
import { LogBook } from './logs.js';
import { R, groupVersion, type ResourceDef } from './resources.js';
import { KubeError, alreadyExists, badRequest, conflict, notFound, statusBody, unsupportedMediaType } from './status.js';
import { ObjectStore, type KObj } from './store.js';

export interface WriteOptions {
  manager: string;
  subresource?: string;
}

/**
 * The API server's write path over the store (admission, defaults, managed fields, optimistic concurrency),
 * shared by the HTTP handlers, the controllers and the test API.
 */
export class KubeState {
  readonly store = new ObjectStore();
  readonly logs = new LogBook();
  private clusterIps = 10;

  now(): string {
    return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  private ctx() {
    return {
      now: this.now(),
      allocateClusterIp: () => {
        const n = this.clusterIps++;
        return `10.96.${Math.floor(n / 250)}.${n % 250}`;
      },
    };
  }

  get(def: ResourceDef, namespace: string | undefined, name: string): KObj {
    const o = this.store.get(def, namespace, name);
    if (!o) throw notFound(def.resource, def.group, name);
    return o;
  }

  private requireNamespace(def: ResourceDef, namespace: string | undefined, creating: boolean) {
    if (!def.namespaced) return;
    const ns = this.store.get(R.namespaces, undefined, namespace ?? '');
    if (!ns) throw notFound('namespaces', '', namespace ?? '');
    if (creating && ns.status?.phase === 'Terminating') {
      throw new KubeError(
        403,
        statusBody(403, 'Forbidden', `${def.resource} is forbidden: unable to create new content in namespace ${namespace} because it is being terminated`, {
          kind: def.resource,
        }),
      );
    }
  }

  create(def: ResourceDef, namespace: string | undefined, body: KObj, o: WriteOptions): KObj {
    checkKind(def, body, false);
    const obj = structuredClone(body);
    obj.metadata ??= {};
    if (def.namespaced) {
      if (obj.metadata.namespace && namespace && obj.metadata.namespace !== namespace)
        throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
      obj.metadata.namespace = namespace ?? obj.metadata.namespace;
    }
    this.requireNamespace(def, obj.metadata.namespace, true);
    delete obj.metadata.managedFields;
    delete obj.metadata.resourceVersion;
    const requested = structuredClone(obj);
    const c = this.ctx();
    prepare(def, obj, undefined, c);
    if (this.store.get(def, obj.metadata.namespace, obj.metadata.name)) throw alreadyExists(def.resource, def.group, obj.metadata.name);
    trackUpdate(undefined, requested, { manager: o.manager, apiVersion: groupVersion(def), now: c.now });
    obj.metadata.managedFields = requested.metadata.managedFields;
    return this.store.put(def, obj);
  }

  /** PUT: replaces the object (or, with subresource status, only its status). */
  replace(def: ResourceDef, namespace: string | undefined, name: string, body: KObj, o: WriteOptions): KObj {
    const old = this.get(def, namespace, name);
    checkKind(def, body, false);
    if (body.metadata?.resourceVersion && body.metadata.resourceVersion !== old.metadata.resourceVersion) throw conflict(def.resource, def.group, name);
    let next: KObj = structuredClone(body);
    if (o.subresource === 'status') next = { ...structuredClone(old), status: next.status };
    else if (def !== R.nodes && def !== R.namespaces) next.status = structuredClone(old.status);
    return this.commit(def, old, next, o);
  }

  patch(def: ResourceDef, namespace: string | undefined, name: string, body: string, contentType: string, o: WriteOptions & { force: boolean }): KObj {
    const type = contentType.split(';')[0].trim();
    const parsed = parseBody(body);
    if (type === 'application/apply-patch+yaml') return this.apply(def, namespace, name, parsed, o);
    const old = this.get(def, namespace, name);
    let next: KObj;
    if (type === 'application/merge-patch+json' || type === 'application/strategic-merge-patch+json') next = mergePatch(old, parsed) as KObj;
    else if (type === 'application/json-patch+json') next = jsonPatch(old, parsed);
    else throw unsupportedMediaType(type);
    if (o.subresource === 'status') next = { ...structuredClone(old), status: next.status };
    else if (def !== R.nodes && def !== R.namespaces) next.status = structuredClone(old.status);
    return this.commit(def, old, next, o);
  }

  apply(def: ResourceDef, namespace: string | undefined, name: string, applied: KObj, o: WriteOptions & { force: boolean }): KObj {
    checkKind(def, applied, true);
    if (applied.metadata?.name !== undefined && applied.metadata.name !== name)
      throw badRequest(`the name of the object (${applied.metadata.name}) does not match the name on the URL (${name})`);
    if (def.namespaced && applied.metadata?.namespace && applied.metadata.namespace !== namespace)
      throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
    const old = this.store.get(def, namespace, name);
    if (!old) this.requireNamespace(def, namespace, true);
    const c = this.ctx();
    const next = serverSideApply(old, applied, { manager: o.manager, force: o.force, apiVersion: groupVersion(def), now: c.now, qualifiedName: name });
    next.metadata = { ...next.metadata, name, ...(def.namespaced ? { namespace } : {}) };
    if (old) next.status = structuredClone(old.status);
    const managed = next.metadata.managedFields;
    prepare(def, next, old, c);
    next.metadata.managedFields = managed;
    if (
      old &&
      JSON.stringify({ ...old, metadata: { ...old.metadata, resourceVersion: 0 } }) ===
        JSON.stringify({ ...next, metadata: { ...next.metadata, resourceVersion: 0 } })
    )
      return old;
    return this.store.put(def, next);
  }

  private commit(def: ResourceDef, old: KObj, next: KObj, o: WriteOptions): KObj {
    const c = this.ctx();
    next.metadata = {
      ...next.metadata,
      name: old.metadata.name,
      ...(def.namespaced ? { namespace: old.metadata.namespace } : {}),
      managedFields: old.metadata.managedFields,
    };
    prepare(def, next, old, c);
    trackUpdate(old, next, { manager: o.manager, apiVersion: groupVersion(def), now: c.now, subresource: o.subresource });
    return this.store.put(def, next);
  }

  /** A controller's write of an object's status: stored only when it changed (so reconciling converges). */
  writeStatus(def: ResourceDef, obj: KObj, status: KObj): KObj {
    if (JSON.stringify(obj.status) === JSON.stringify(status)) return obj;
    return this.store.put(def, { ...obj, metadata: { ...obj.metadata }, status });
  }

  /** A controller's write of the whole object, no ownership bookkeeping (labels, owner references it set itself). */
  writeRaw(def: ResourceDef, obj: KObj): KObj {
    return this.store.put(def, obj);
  }

  remove(def: ResourceDef, namespace: string | undefined, name: string): KObj {
    const gone = this.store.remove(def, namespace, name);
    if (!gone) throw notFound(def.resource, def.group, name);
    if (def === R.pods) this.logs.forget(gone.metadata.uid);
    return gone;
  }

  /** Records an Event, counting repeats of the same reason and message on the same object as the recorder does. */
  recordEvent(involved: KObj, type: 'Normal' | 'Warning', reason: string, message: string, component: string, host?: string, fieldPath?: string) {
    const now = this.now();
    const ns = involved.metadata.namespace ?? 'default';
    const existing = this.store.list(R.events, ns).find((e) => e.involvedObject.uid === involved.metadata.uid && e.reason === reason && e.message === message);
    if (existing) {
      this.store.put(R.events, { ...existing, metadata: { ...existing.metadata }, count: existing.count + 1, lastTimestamp: now });
      return;
    }
    const name = `${involved.metadata.name}.${crypto.randomBytes(8).toString('hex')}`;
    this.store.put(R.events, {
      kind: 'Event',
      apiVersion: 'v1',
      metadata: { name, namespace: ns, uid: crypto.randomUUID(), creationTimestamp: now },
      involvedObject: {
        kind: involved.kind,
        namespace: involved.metadata.namespace,
        name: involved.metadata.name,
        uid: involved.metadata.uid,
        apiVersion: involved.apiVersion,
        resourceVersion: involved.metadata.resourceVersion,
        ...(fieldPath ? { fieldPath } : {}),
      },
      reason,
      message,
      source: { component, ...(host ? { host } : {}) },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      type,
      eventTime: null,
      reportingComponent: component,
      reportingInstance: host ?? '',
    });
  }
}

/** Request bodies: JSON (also YAML's JSON subset, which is what kubectl and client-node send as apply patches). */
export function parseBody(body: string): any {
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest('error decoding request body: the stand-in accepts JSON bodies only (YAML in its JSON form)');
  }
}
