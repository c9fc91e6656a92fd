import type { IncomingMessage, ServerResponse } from 'node:http';
import { isAllowed, type TokenInfo, type TokenRegistry } from './auth.js';
import type { Controllers } from './controllers.js';
import { VERSION, apiGroup, apiGroupList, apiVersions, openApiV3Doc, openApiV3Root, resourceList } from './discovery.js';
import type { MetricsBook } from './metrics.js';
import { formatKi, formatNanoCores } from './quantity.js';
import { R, findResource, groupVersion, type ResourceDef } from './resources.js';
import { parseFieldSelector, parseLabelSelector } from './selectors.js';
import { KubeError, badRequest, forbidden, gone, methodNotAllowed, notFound, pathNotFound, statusBody, unauthorized } from './status.js';
import { parseBody, type KubeState } from './state.js';
import type { KObj } from './store.js';
import { toTable, wantsTable } from './tables.js';

export interface ServerContext {
  state: KubeState;
  controllers: Controllers;
  metrics: MetricsBook;
  tokens: TokenRegistry;
  url: () => string;
}

interface Target {
  def: ResourceDef;
  namespace?: string;
  name?: string;
  subresource?: string;
}

const send = (res: ServerResponse, code: number, body: unknown) => {
  res.writeHead(code, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  res.end(JSON.stringify(body));
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** /api/v1/... and /apis/<group>/<version>/... into a resource, namespace, name and subresource. */
function parseTarget(parts: string[], metrics: boolean): Target | undefined {
  let group = '';
  let version: string;
  let rest: string[];
  if (parts[0] === 'api') [version, rest] = [parts[1], parts.slice(2)];
  else [group, version, rest] = [parts[1], parts[2], parts.slice(3)];
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const def = findResource(group, version, rest[0], metrics);
  if (!def || rest.length > 3 || (namespace && !def.namespaced)) return undefined;
  return { def, namespace, name: rest[1], subresource: rest[2] };
}

function verbOf(method: string, t: Target, watch: boolean): string {
  switch (method) {
    case 'GET':
      return watch ? 'watch' : t.name ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return t.name ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}

/** The field manager of an Update without ?fieldManager: the client's user agent, as the real server names it. */
const managerOf = (req: IncomingMessage, q: URLSearchParams) => q.get('fieldManager') ?? (req.headers['user-agent'] ?? 'unknown').split('/')[0];

export async function handle(ctx: ServerContext, req: IncomingMessage, res: ServerResponse) {
  try {
    await route(ctx, req, res);
  } catch (e) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (e instanceof KubeError) send(res, e.code, e.status);
    else send(res, 500, statusBody(500, 'InternalError', `Internal error occurred: ${(e as Error).message}`));
  }
}

async function route(ctx: ServerContext, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'https://standin');
  const q = url.searchParams;
  const path = url.pathname.replace(/\/+$/, '');
  if (['/healthz', '/livez', '/readyz'].includes(path)) {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
    return;
  }
  const who = ctx.tokens.authenticate(req.headers.authorization);
  if (!who) throw unauthorized();
  const metrics = ctx.metrics.enabled;
  const parts = path.split('/').filter(Boolean);

  // discovery: any authenticated user may read it (system:discovery)
  if (req.method === 'GET') {
    if (path === '/version') return send(res, 200, VERSION);
    if (path === '/api') return send(res, 200, apiVersions(new URL(ctx.url()).host));
    if (path === '/apis') return send(res, 200, apiGroupList(metrics));
    if (path === '/openapi/v3') return send(res, 200, openApiV3Root(metrics));
    if (path.startsWith('/openapi/v3/')) return sendOr404(res, openApiV3Doc(path.slice('/openapi/v3/'.length), metrics));
    if (parts[0] === 'api' && parts.length === 2) return sendOr404(res, resourceList('', parts[1], metrics));
    if (parts[0] === 'apis' && parts.length === 2) return sendOr404(res, apiGroup(parts[1], metrics));
    if (parts[0] === 'apis' && parts.length === 3) return sendOr404(res, resourceList(parts[1], parts[2], metrics));
  }
  if (parts[0] !== 'api' && parts[0] !== 'apis') throw pathNotFound();
  const t = parseTarget(parts, metrics);
  if (!t) throw pathNotFound();
  const watch = q.get('watch') === '1' || q.get('watch') === 'true';
  const verb = verbOf(req.method ?? 'GET', t, watch);
  const attrs = { verb, group: t.def.group, resource: t.def.resource, subresource: t.subresource, namespace: t.namespace, name: t.name };
  // every authenticated user may review its own access (system:basic-user)
  if (t.def !== R.selfSubjectAccessReviews && !isAllowed(who.rules, attrs))
    throw forbidden(who.user, verb, t.subresource ? `${t.def.resource}/${t.subresource}` : t.def.resource, t.def.group, t.namespace, t.name);
  if (!t.def.verbs.includes(verb)) throw methodNotAllowed();

  if (t.def === R.selfSubjectAccessReviews) return send(res, 201, accessReview(who, parseBody(await readBody(req))));
  if (t.def === R.nodeMetrics || t.def === R.podMetrics) return metricsAnswer(ctx, res, t, q);

  const { state } = ctx;
  const def = t.def;
  switch (req.method) {
    case 'GET': {
      if (watch) return startWatch(ctx, req, res, t, q);
      if (t.subresource === 'log') return podLogs(ctx, req, res, t, q);
      if (t.name) {
        const o = state.get(def, t.namespace, t.name);
        if (t.subresource === 'scale') return send(res, 200, scaleOf(o));
        return send(res, 200, wantsTable(req.headers.accept) ? toTable(def, [o], state.store.resourceVersion, q.get('includeObject')) : o);
      }
      const items = select(ctx, t, q);
      if (wantsTable(req.headers.accept)) return send(res, 200, toTable(def, items, state.store.resourceVersion, q.get('includeObject')));
      return send(res, 200, { kind: `${def.kind}List`, apiVersion: groupVersion(def), metadata: { resourceVersion: state.store.resourceVersion }, items });
    }
    case 'POST': {
      if (t.name) throw methodNotAllowed();
      const created = state.create(def, t.namespace, parseBody(await readBody(req)), { manager: managerOf(req, q) });
      return send(res, 201, created);
    }
    case 'PUT': {
      if (!t.name) throw methodNotAllowed();
      const body = parseBody(await readBody(req));
      if (t.subresource === 'scale') return send(res, 200, scaleOf(setScale(ctx, t, body?.spec?.replicas, managerOf(req, q))));
      return send(res, 200, state.replace(def, t.namespace, t.name, body, { manager: managerOf(req, q), subresource: t.subresource }));
    }
    case 'PATCH': {
      if (!t.name) throw methodNotAllowed();
      const body = await readBody(req);
      const type = String(req.headers['content-type'] ?? '');
      if (t.subresource === 'scale') {
        const patch = parseBody(body);
        return send(res, 200, scaleOf(setScale(ctx, t, patch?.spec?.replicas, managerOf(req, q))));
      }
      const isApply = type.startsWith('application/apply-patch');
      if (isApply && !q.get('fieldManager')) throw badRequest('PATCH request with apply-patch content type requires fieldManager query parameter');
      const existed = !!state.store.get(def, t.namespace, t.name);
      const out = state.patch(def, t.namespace, t.name, body, type, {
        manager: managerOf(req, q),
        subresource: t.subresource,
        force: q.get('force') === 'true',
      });
      return send(res, isApply && !existed ? 201 : 200, out);
    }
    case 'DELETE': {
      if (!t.name) {
        const items = select(ctx, t, q);
        for (const o of items) deleteObject(ctx, def, o.metadata.namespace, o.metadata.name);
        return send(res, 200, { kind: `${def.kind}List`, apiVersion: groupVersion(def), metadata: { resourceVersion: state.store.resourceVersion }, items });
      }
      return send(res, 200, deleteObject(ctx, def, t.namespace, t.name));
    }
  }
  throw methodNotAllowed();
}

const sendOr404 = (res: ServerResponse, body: unknown) => {
  if (!body) throw pathNotFound();
  send(res, 200, body);
};

function select(ctx: ServerContext, t: Target, q: URLSearchParams): KObj[] {
  const labels = parseLabelSelector(q.get('labelSelector'));
  const fields = parseFieldSelector(q.get('fieldSelector'), t.def.kind);
  return ctx.state.store.list(t.def, t.namespace).filter((o) => labels(o.metadata.labels) && fields(o));
}

/** Deployments, ReplicaSets and the rest go at once (background cascade); a pod answers itself, a namespace starts terminating. */
function deleteObject(ctx: ServerContext, def: ResourceDef, namespace: string | undefined, name: string) {
  const { state } = ctx;
  const o = state.get(def, namespace, name);
  if (def === R.namespaces) {
    if (['default', 'kube-system', 'kube-public'].includes(name)) {
      throw new KubeError(
        403,
        statusBody(403, 'Forbidden', `namespaces "${name}" is forbidden: this namespace may not be deleted`, { name, kind: 'namespaces' }),
      );
    }
    const terminating =
      o.status?.phase === 'Terminating'
        ? o
        : state.writeRaw(R.namespaces, { ...o, metadata: { ...o.metadata, deletionTimestamp: state.now() }, status: { phase: 'Terminating' } });
    return terminating;
  }
  const gone = state.remove(def, namespace, name);
  if (def === R.pods) return { ...gone, metadata: { ...gone.metadata, deletionTimestamp: state.now(), deletionGracePeriodSeconds: 30 } };
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name, ...(def.group ? { group: def.group } : {}), kind: def.resource, uid: gone.metadata.uid },
  };
}

function scaleOf(d: KObj) {
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: d.metadata.name,
      namespace: d.metadata.namespace,
      uid: d.metadata.uid,
      resourceVersion: d.metadata.resourceVersion,
      creationTimestamp: d.metadata.creationTimestamp,
    },
    spec: { replicas: d.spec.replicas },
    status: {
      replicas: d.status?.replicas ?? 0,
      selector: Object.entries(d.spec.selector?.matchLabels ?? {})
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
    },
  };
}

function setScale(ctx: ServerContext, t: Target, replicas: unknown, manager: string) {
  if (typeof replicas !== 'number' || replicas < 0) throw badRequest('spec.replicas: must be a non-negative integer');
  return ctx.state.patch(t.def, t.namespace, t.name!, JSON.stringify({ spec: { replicas } }), 'application/merge-patch+json', {
    manager,
    subresource: 'scale',
    force: false,
  });
}

function accessReview(who: TokenInfo, body: KObj) {
  const ra = body?.spec?.resourceAttributes;
  const allowed = ra
    ? isAllowed(who.rules, {
        verb: ra.verb ?? '',
        group: ra.group ?? '',
        resource: ra.resource ?? '',
        subresource: ra.subresource || undefined,
        namespace: ra.namespace || undefined,
        name: ra.name,
      })
    : false;
  return {
    kind: 'SelfSubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec: body?.spec ?? {},
    status: { allowed, ...(allowed ? { reason: `RBAC: allowed by the stand-in token of "${who.user}"` } : {}) },
  };
}

function metricsAnswer(ctx: ServerContext, res: ServerResponse, t: Target, q: URLSearchParams) {
  const { state, metrics } = ctx;
  const now = state.now();
  const labels = parseLabelSelector(q.get('labelSelector'));
  if (t.def === R.nodeMetrics) {
    const allPods = state.store.list(R.pods).filter((p) => p.status?.phase === 'Running');
    const nm = (n: KObj) => {
      const u = metrics.nodeUsage(
        n,
        allPods.filter((p) => p.spec.nodeName === n.metadata.name),
      );
      return {
        kind: 'NodeMetrics',
        apiVersion: 'metrics.k8s.io/v1beta1',
        metadata: { name: n.metadata.name, creationTimestamp: now, labels: n.metadata.labels },
        timestamp: now,
        window: '20.006s',
        usage: { cpu: formatNanoCores(u.cpu), memory: formatKi(u.memory) },
      };
    };
    if (t.name) return send(res, 200, nm(state.get(R.nodes, undefined, t.name)));
    return send(res, 200, {
      kind: 'NodeMetricsList',
      apiVersion: 'metrics.k8s.io/v1beta1',
      metadata: {},
      items: state.store
        .list(R.nodes)
        .filter((n) => labels(n.metadata.labels))
        .map(nm),
    });
  }
  const pm = (p: KObj) => ({
    kind: 'PodMetrics',
    apiVersion: 'metrics.k8s.io/v1beta1',
    metadata: { name: p.metadata.name, namespace: p.metadata.namespace, creationTimestamp: now, labels: p.metadata.labels },
    timestamp: now,
    window: '18.074s',
    containers: metrics.podUsage(p).map((c) => ({ name: c.name, usage: { cpu: formatNanoCores(c.cpu), memory: formatKi(c.memory) } })),
  });
  const running = state.store.list(R.pods, t.namespace).filter((p) => p.status?.phase === 'Running' && labels(p.metadata.labels));
  if (t.name) {
    const p = running.find((x) => x.metadata.name === t.name);
    if (!p) throw notFound('pods', 'metrics.k8s.io', t.name);
    return send(res, 200, pm(p));
  }
  return send(res, 200, { kind: 'PodMetricsList', apiVersion: 'metrics.k8s.io/v1beta1', metadata: {}, items: running.map(pm) });
}

function startWatch(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, t: Target, q: URLSearchParams) {
  const labels = parseLabelSelector(q.get('labelSelector'));
  const fields = parseFieldSelector(q.get('fieldSelector'), t.def.kind);
  const matches = (o: KObj | undefined) =>
    !!o && (!t.namespace || o.metadata.namespace === t.namespace) && (!t.name || o.metadata.name === t.name) && labels(o.metadata.labels) && fields(o);
  const rv = q.get('resourceVersion');
  let backlog: { type: string; object: KObj }[];
  if (!rv || rv === '0')
    backlog = ctx.state.store
      .list(t.def, t.namespace)
      .filter(matches)
      .map((object) => ({ type: 'ADDED', object }));
  else {
    const past = ctx.state.store.since(Number(rv));
    if (!past) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.end(`${JSON.stringify({ type: 'ERROR', object: gone(`too old resource version: ${rv} (${ctx.state.store.resourceVersion})`).status })}\n`);
      return;
    }
    backlog = past.filter((r) => r.def === t.def).flatMap((r) => event(r.type, r.object, r.previous));
  }
  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  function event(type: string, object: KObj, previous?: KObj): { type: string; object: KObj }[] {
    const now = matches(object);
    const before = previous ? matches(previous) : false;
    if (type === 'MODIFIED' && now && !before) return [{ type: 'ADDED', object }];
    if (type === 'MODIFIED' && !now && before) return [{ type: 'DELETED', object }];
    return now ? [{ type, object }] : [];
  }
  for (const e of backlog) res.write(`${JSON.stringify(e)}\n`);
  const unsubscribe = ctx.state.store.subscribe((r) => {
    if (r.def !== t.def) return;
    for (const e of event(r.type, r.object, r.previous)) res.write(`${JSON.stringify(e)}\n`);
  });
  const timeout = Number(q.get('timeoutSeconds') ?? 0);
  const timer = timeout > 0 ? setTimeout(() => res.end(), timeout * 1000) : undefined;
  const stop = () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
  req.on('close', stop);
  res.on('close', stop);
}

function podLogs(ctx: ServerContext, req: IncomingMessage, res: ServerResponse, t: Target, q: URLSearchParams) {
  const pod = ctx.state.get(R.pods, t.namespace, t.name!);
  const names: string[] = pod.spec.containers.map((c: KObj) => c.name);
  let container = q.get('container');
  if (!container) {
    if (names.length > 1) throw badRequest(`a container name must be specified for pod ${pod.metadata.name}, choose one of: [${names.join(' ')}]`);
    container = names[0];
  }
  if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${pod.metadata.name}`);
  const status = (pod.status?.containerStatuses ?? []).find((c: KObj) => c.name === container);
  if (!status || status.state?.waiting?.reason === 'ContainerCreating') {
    throw badRequest(`container "${container}" in pod "${pod.metadata.name}" is waiting to start: ${status?.state?.waiting?.reason ?? 'ContainerCreating'}`);
  }
  const previous = q.get('previous') === 'true';
  let lines = ctx.state.logs.lines(pod.metadata.uid, container, previous);
  if (!lines) throw badRequest(`previous terminated container "${container}" in pod "${pod.metadata.name}" not found`);
  const sinceSeconds = Number(q.get('sinceSeconds') ?? 0);
  if (sinceSeconds > 0) lines = lines.filter((l) => Date.parse(l.time) >= Date.now() - sinceSeconds * 1000);
  const tail = q.get('tailLines');
  if (tail !== null) lines = Number(tail) > 0 ? lines.slice(-Number(tail)) : [];
  const timestamps = q.get('timestamps') === 'true';
  const fmt = (l: { time: string; text: string }) => `${timestamps ? `${l.time} ` : ''}${l.text}\n`;
  res.writeHead(200, {
    'Content-Type': 'text/plain',
    'Cache-Control': 'no-cache, private',
    ...(q.get('follow') === 'true' ? { 'Transfer-Encoding': 'chunked' } : {}),
  });
  const limit = Number(q.get('limitBytes') ?? 0);
  const text = lines.map(fmt).join('');
  if (q.get('follow') !== 'true' || previous) {
    res.end(limit > 0 ? text.slice(0, limit) : text);
    return;
  }
  res.write(text);
  const stop = ctx.state.logs.follow(
    pod.metadata.uid,
    container,
    (l) => res.write(fmt(l)),
    () => res.end(),
  );
  req.on('close', stop);
  res.on('close', stop);
}
