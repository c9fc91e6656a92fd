import crypto from 'node:crypto';
import {
  SENSITIVE_PLACEHOLDER,
  TIMELINE_SOURCE_LIMIT,
  autoScalingConfigurations,
  autoScalingFrom,
  clusterMessages,
  serviceInputErrors,
  serviceMessages,
  type AutoScaling,
  type CreateMicroserviceBody,
  type DeployBody,
  type DeployedMicroserviceList,
  type DeploymentHistoryEntry,
  type DeploymentHistoryPage,
  type DeploymentStatus,
  type KubernetesSpec,
  type Microservice,
  type MicroservicesStatus,
  type MicroserviceVersions,
  type PodEventList,
  type PodList,
  type PodLogs,
  type ServiceKind,
  type ServiceSchema,
  type ServiceStatusEntry,
  type ServiceUpdateEvent,
  type TimelineEvent,
  type UpdateMicroserviceBody,
} from '@gantry/contracts';
import { AppError, Conflict, Forbidden, NotFound, Validation } from '../../platform/errors.js';
import type { SecretBox } from '../../platform/secrets.js';
import { KubeFailure, countPods, parseQuantity, toKubeFailure } from '../../integrations/kubernetes/index.js';
import type { ClusterConnection, ClusterServicesSource, ClustersPort } from '../clusters/clusters.port.js';
import type { RegistriesPort, RegistryVersionsPort } from '../registries/registries.port.js';
import type { NotificationsService } from '../notifications/notifications.port.js';
import { publicService, publicServices, publicTags } from './services.catalogue.js';
import { ANNOTATIONS, LABELS, buildManifests, envSecretName, kubeName, pullSecretName } from './services.manifests.js';
import type { ApplyKind, ServiceKube, ServiceKubeConnector } from './services.kube.js';
import type { ServiceDeployRequest, ServicesPort } from './services.port.js';
import type { PullRenewal } from './services.pull-renewal.js';
import type { DeploymentRow, MicroserviceRow, ServicesStore } from './services.store.js';

interface Log {
  warn(obj: object, msg?: string): void;
}

type Initiator = ServiceDeployRequest['initiator'];
interface StoredConfiguration {
  env: { key: string; value: string; sensitive: boolean }[];
  autoScaling: AutoScaling;
}

function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const round2 = (n: number) => Math.round(n * 100) / 100;
/** The Kubernetes objects a deploy creates, in the order undeploy removes them (the workload first). */
type ListedObjects = Parameters<ClusterServicesSource>[2];

const OWNED_KINDS: ApplyKind[] = ['HorizontalPodAutoscaler', 'Deployment', 'Service', 'Secret'];

export function createServicesService(deps: {
  store: ServicesStore;
  secrets: SecretBox;
  clusters: ClustersPort;
  registries: Pick<RegistriesPort, 'pushTarget'> & RegistryVersionsPort;
  connect: ServiceKubeConnector;
  notifications: Pick<NotificationsService, 'serviceDeployed'>;
  /** Keeps an ECR image's pull secret fresh after its deploy. */
  pullRenewal: Pick<PullRenewal, 'schedule'>;
  /** Tells the project room (`service:update`) of a deploy or undeploy written. */
  tellProject?: (projectId: string, event: 'service:update', payload: ServiceUpdateEvent) => void;
  timeoutMs?: number;
  log?: Log;
  now?: () => Date;
}) {
  const { store, secrets, clusters, registries, connect } = deps;

  /** A deploy's or undeploy's row as written: the project room hears of it (the overview's timeline reads again). */
  function told(row: DeploymentRow): DeploymentRow {
    deps.tellProject?.(row.projectId, 'service:update', {
      historyId: row.id,
      microserviceName: row.serviceName,
      clusterId: row.clusterId,
      namespace: row.namespace,
      status: row.status as ServiceUpdateEvent['status'],
      version: row.version,
    });
    return row;
  }
  const now = deps.now ?? (() => new Date());

  function toApi(row: MicroserviceRow): Microservice {
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      registry: row.registry,
      imageRepository: row.imageRepository,
      readme: row.readme,
      isPublic: false,
      kind: 'PRIVATE',
      schema: row.schema as ServiceSchema,
      createdAt: row.createdAt.toISOString(),
    };
  }

  async function getAny(projectId: string, name: string): Promise<Microservice> {
    const pub = publicService(name);
    if (pub) return pub;
    const row = await store.get(projectId, name);
    if (!row) throw new NotFound(serviceMessages.notFound);
    return toApi(row);
  }
  async function getPrivate(projectId: string, name: string): Promise<MicroserviceRow> {
    if (publicService(name)) throw new Forbidden(serviceMessages.publicReadOnly);
    const row = await store.get(projectId, name);
    if (!row) throw new NotFound(serviceMessages.notFound);
    return row;
  }

  /** A cluster failure: 400 when the API server rejected what was sent (kubernetesError carries its reason), else 502. */
  function clusterError(err: unknown, endpoint: string): never {
    if (err instanceof AppError) throw err;
    const f = toKubeFailure(err, endpoint, deps.timeoutMs ?? 10_000);
    const kubernetesError = { message: f.message };
    if (f.o.status && [400, 404, 409, 422].includes(f.o.status))
      throw new AppError(400, `The cluster rejected the request: ${f.message}`, 'KubernetesRejected', { kubernetesError });
    const message = f.kind === 'refused' ? clusterMessages.refused(f.message) : clusterMessages.unreachable(f.message);
    throw new AppError(502, message, f.kind === 'refused' ? 'ClusterRefused' : 'ClusterUnreachable', { kubernetesError });
  }

  async function onCluster<T>(projectId: string, clusterId: string, namespace: string | null, fn: (kube: ServiceKube, c: ClusterConnection) => Promise<T>) {
    const c = await clusters.connectionFor(projectId, clusterId);
    if (namespace && c.associatedNamespace && namespace !== c.associatedNamespace)
      throw new Validation(serviceMessages.namespaceNotAllowed(c.associatedNamespace));
    const kube = connect({ endpoint: c.endpoint, token: c.token, caCertificate: c.caCertificate }, { timeoutMs: deps.timeoutMs });
    try {
      return await fn(kube, c);
    } catch (err) {
      return clusterError(err, c.endpoint);
    }
  }

  const openConfiguration = (row: DeploymentRow | undefined): StoredConfiguration | null =>
    row?.configurationSealed ? (JSON.parse(secrets.open(row.configurationSealed)) as StoredConfiguration) : null;

  function historyEntry(r: DeploymentRow): DeploymentHistoryEntry {
    return {
      id: r.id,
      status: r.status as DeploymentHistoryEntry['status'],
      timestamp: r.startedAt.toISOString(),
      finishedAt: iso(r.finishedAt),
      initiator: {
        kind: r.initiatorKind as 'user' | 'pipeline',
        id: r.initiatorKind === 'user' ? r.initiatorUserId : r.pipelineId,
        email: r.initiatorEmail,
        pipelineId: r.pipelineId,
        buildId: r.buildId,
      },
      previousVersion: r.previousVersion,
      version: r.version,
      commit: r.commit,
      error: r.error,
      description: r.description,
      imageRepository: r.imageRepository,
      kubernetesId: r.clusterId,
      namespace: r.namespace,
      registry: r.registry,
    };
  }

  /** The image to run and the pull credentials: a registry's through the registries module, none for a public image. */
  async function imageOf(projectId: string, svc: Microservice, tag: string, override: string | undefined) {
    if (!svc.registry) {
      const base = svc.isPublic && override ? override : svc.imageRepository;
      return { image: base.includes('@') || /:[^/]+$/.test(base) ? base : `${base}:${tag}`, pull: null, provider: null };
    }
    const t = await registries.pushTarget(projectId, svc.registry);
    const repo = svc.imageRepository.replace(/^\/+|\/+$/g, '');
    const path = !t.repositoryPrefix || repo === t.repositoryPrefix || repo.startsWith(`${t.repositoryPrefix}/`) ? repo : `${t.repositoryPrefix}/${repo}`;
    return { image: `${t.host}/${path}:${tag}`, pull: { host: t.host, username: t.username, password: t.password }, provider: t.provider };
  }

  interface DeployInput {
    projectId: string;
    clusterId: string;
    namespace: string;
    serviceName: string;
    version: string;
    /** null: the stored configuration of the last deploy there (or the defaults): a pipeline deploying a new tag. */
    configurations: { key: string; value: string }[] | null;
    autoScaling: AutoScaling | null;
    image?: string;
    initiator: Initiator;
    commit: string | null;
    log?: (line: string) => void;
  }

  async function deploy(d: DeployInput): Promise<{ done: true; historyId: string }> {
    const say = d.log ?? (() => {});
    const svc = await getAny(d.projectId, d.serviceName);
    const conn = await clusters.connectionFor(d.projectId, d.clusterId);
    if (conn.associatedNamespace && d.namespace !== conn.associatedNamespace)
      throw new Validation(serviceMessages.namespaceNotAllowed(conn.associatedNamespace));
    const last = await store.lastFinished(d.projectId, d.clusterId, d.namespace, svc.name);
    const stored = last?.status === 'SUCCEEDED' ? openConfiguration(last) : null;
    const autoScaling = d.autoScaling ?? stored?.autoScaling ?? autoScalingFrom([]);
    const sensitiveInputs = new Set(svc.schema.inputs.filter((i) => i.sensitive).map((i) => i.name));
    const given = d.configurations ?? stored?.env ?? [];
    // a sensitive value sent back as the placeholder keeps the stored one
    const env = given.map((c) => {
      const kept = c.value === SENSITIVE_PLACEHOLDER ? stored?.env.find((e) => e.key === c.key)?.value : undefined;
      return { key: c.key, value: kept ?? c.value, sensitive: sensitiveInputs.has(c.key) };
    });
    for (const input of svc.schema.inputs)
      if (input.default !== null && !env.some((e) => e.key === input.name)) env.push({ key: input.name, value: input.default, sensitive: input.sensitive });
    const inputErrors = serviceInputErrors(svc.schema, Object.fromEntries(env.map((e) => [e.key, e.value])));
    if (Object.keys(inputErrors).length)
      throw new Validation(Object.values(inputErrors).join('\n'), Object.fromEntries(Object.entries(inputErrors).map(([k, m]) => [`inputs.${k}`, [m]])));
    const duplicate = env.find((e, i) => env.findIndex((o) => o.key === e.key) !== i);
    if (duplicate) throw new Validation(`Environment variable ${duplicate.key} is given twice`, { [`configurations`]: [`${duplicate.key} is given twice`] });

    const initiator = d.initiator;
    // a tag chosen in the dialog: its commit is the one the image's labels name (a build's docker-push), as the
    // versions list shows it, so the history and the cluster's table tell it as they do for a pipeline's deploy
    const commit =
      d.commit ??
      (svc.registry ? ((await registries.commitOf(d.projectId, svc.registry, { repository: svc.imageRepository, tag: d.version }))?.sha ?? null) : null);
    const row = told(
      await store.insertDeployment({
        id: crypto.randomUUID(),
        projectId: d.projectId,
        clusterId: d.clusterId,
        namespace: d.namespace,
        serviceName: svc.name,
        isPublic: svc.isPublic,
        status: 'IN_PROGRESS',
        version: d.version,
        previousVersion: last?.status === 'SUCCEEDED' ? last.version : null,
        commit,
        description: svc.description,
        imageRepository: svc.imageRepository,
        registry: svc.registry,
        initiatorKind: 'userId' in initiator ? 'user' : 'pipeline',
        initiatorUserId: 'userId' in initiator ? initiator.userId : null,
        initiatorEmail: 'userId' in initiator ? initiator.email : null,
        pipelineId: 'pipelineId' in initiator ? initiator.pipelineId : null,
        buildId: 'pipelineId' in initiator ? initiator.buildId : null,
        configurationSealed: secrets.seal(JSON.stringify({ env, autoScaling } satisfies StoredConfiguration)),
      }),
    );
    try {
      say(`Deploying ${svc.name}:${d.version} to namespace ${d.namespace} of cluster ${d.clusterId}`);
      const { image, pull, provider } = await imageOf(d.projectId, svc, d.version, d.image);
      say(`Image ${image}${pull ? ` (pulled with the credentials of registry ${svc.registry})` : ''}`);
      const kube = connect({ endpoint: conn.endpoint, token: conn.token, caCertificate: conn.caCertificate }, { timeoutMs: deps.timeoutMs });
      try {
        const name = kubeName(svc.name);
        const live = await kube.readDeployment(d.namespace, name);
        const m = buildManifests(
          {
            serviceName: svc.name,
            namespace: d.namespace,
            image,
            version: d.version,
            commit,
            isPublic: svc.isPublic,
            registry: svc.registry,
            imageRepository: svc.imageRepository,
            autoScaling,
            env,
            schema: svc.schema,
            pull,
            deployedAt: now().toISOString(),
          },
          live,
        );
        for (const obj of [m.pullSecret, m.inputsSecret, m.deployment, m.service, m.hpa]) {
          if (!obj) continue;
          await kube.apply(obj);
          say(`Applied ${obj.kind} ${obj.metadata.name}`);
        }
        // secrets an earlier deploy made that this one no longer needs
        if (!m.pullSecret && (await removeOwned(kube, 'Secret', d.namespace, pullSecretName(svc.name)))) say(`Removed Secret ${pullSecretName(svc.name)}`);
        if (!m.inputsSecret && (await removeOwned(kube, 'Secret', d.namespace, envSecretName(svc.name)))) say(`Removed Secret ${envSecretName(svc.name)}`);
        if (live && m.deployment.spec.replicas === undefined) say(`Replicas left to the HorizontalPodAutoscaler (now ${live.spec?.replicas ?? 1})`);
      } catch (err) {
        clusterError(err, conn.endpoint);
      }
      told(await store.finishDeployment(row.id, { status: 'SUCCEEDED', error: null }));
      if (provider === 'Ecr')
        await deps.pullRenewal.schedule({ projectId: d.projectId, clusterId: d.clusterId, namespace: d.namespace, serviceName: svc.name, historyId: row.id });
      say(`Deployed ${svc.name}:${d.version}`);
      await tell(d, svc.name, true);
      return { done: true, historyId: row.id };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      told(await store.finishDeployment(row.id, { status: 'FAILED', error: message.slice(0, 2000) }));
      say(`Deploy failed: ${message}`);
      await tell(d, svc.name, false);
      throw err;
    }
  }

  /** The project's subscribed members hear of a finished deploy; a failing notification never fails the deploy. */
  async function tell(d: DeployInput, serviceName: string, succeeded: boolean) {
    const triggeredBy = 'userId' in d.initiator ? d.initiator.userId : null;
    try {
      await deps.notifications.serviceDeployed({ projectId: d.projectId, serviceName, succeeded, version: d.version, triggeredBy });
    } catch (err) {
      deps.log?.warn({ err, serviceName }, 'service deploy notification failed');
    }
  }

  /** Deletes a Gantry-made object (never one of the same name someone else made); false when there was none. */
  async function removeOwned(kube: ServiceKube, kind: ApplyKind, namespace: string, name: string): Promise<boolean> {
    const live = await kube.read(kind, namespace, name);
    if (!live || live.metadata?.labels?.[LABELS.managedBy] !== 'gantry') return false;
    return kube.remove(kind, namespace, name);
  }

  /** Gantry's own Deployments and pods (in the associated namespace, or everywhere), listed here or taken from `listed`. */
  async function managedObjects(kube: ServiceKube, c: ClusterConnection, listed?: ListedObjects): Promise<ListedObjects> {
    if (listed) {
      const ours = (o: { metadata?: { labels?: Record<string, string> } }) => o.metadata?.labels?.[LABELS.managedBy] === 'gantry';
      return { deployments: listed.deployments.filter(ours), pods: listed.pods.filter(ours) };
    }
    const deployments = await kube.managedDeployments(c.associatedNamespace);
    return { deployments, pods: deployments.length ? await kube.pods(c.associatedNamespace, `${LABELS.managedBy}=gantry`) : [] };
  }

  /**
   * One row per service Gantry deployed on the cluster (spec §3 service status entry), from its Deployments and pods;
   * the cluster status passes the ones it has just listed, so the cluster is asked once.
   */
  async function servicesOnCluster(projectId: string, clusterId: string, listed?: ListedObjects): Promise<ServiceStatusEntry[]> {
    return onCluster(projectId, clusterId, null, async (kube, c) => {
      const [{ deployments, pods }, latest] = await Promise.all([managedObjects(kube, c, listed), store.latestPerService(projectId, clusterId)]);
      // grouped by namespace and service
      const podsOf = new Map<string, typeof pods>();
      for (const p of pods) {
        const key = `${p.metadata?.namespace}/${p.metadata?.labels?.[LABELS.service]}`;
        podsOf.set(key, [...(podsOf.get(key) ?? []), p]);
      }
      const rows: ServiceStatusEntry[] = deployments.map((d) => {
        const ns = d.metadata?.namespace ?? '';
        const a = d.metadata?.annotations ?? {};
        const name = a[ANNOTATIONS.serviceName] ?? d.metadata?.name ?? '';
        const counts = countPods(podsOf.get(`${ns}/${d.metadata?.name}`) ?? []);
        const desired = d.spec?.replicas ?? 1;
        const healthy = (d.status?.availableReplicas ?? 0) >= desired && counts.failed === 0;
        const last = latest.find((r) => r.namespace === ns && r.serviceName === name);
        const commit = a[ANNOTATIONS.commit];
        return {
          id: d.metadata?.uid ?? '',
          name,
          namespace: ns,
          version: a[ANNOTATIONS.version] ?? null,
          imageRepository: a[ANNOTATIONS.imageRepository] ?? '',
          registry: a[ANNOTATIONS.registry] ?? null,
          isPublic: a[ANNOTATIONS.isPublic] === 'true',
          lastDeployed: a[ANNOTATIONS.deployedAt] ?? null,
          isHealthy: healthy,
          health: healthy ? 'HEALTHY' : 'FAILED',
          podStatus: { runningPods: counts.running, totalPods: counts.total, failedPods: counts.failed, pendingPods: counts.pending },
          commit: commit
            ? {
                name: commit.slice(0, 7),
                version: commit,
                message: '',
                pipelineId: last?.pipelineId ?? null,
                repository: null,
                user: { name: '', avatar: '' },
              }
            : null,
          lastDeployStatus: last?.status ?? null,
        };
      });
      rows.sort((x, y) => x.namespace.localeCompare(y.namespace) || x.name.localeCompare(y.name));
      return rows;
    });
  }

  const port: ServicesPort = {
    deployVersion: (req) =>
      deploy({
        projectId: req.projectId,
        clusterId: req.clusterId,
        namespace: req.namespace,
        serviceName: req.serviceName,
        version: req.tag,
        configurations: null,
        autoScaling: null,
        initiator: req.initiator,
        commit: req.commit ?? null,
        log: req.log,
      }),
  };

  const podSelector = (serviceName: string) => `${LABELS.service}=${kubeName(serviceName)}`;
  /** A pod of the service: named after its Deployment's ReplicaSet (`<name>-<hash>-<id>`). */
  const involves = (name: string, e: { involvedObject?: { kind?: string; name?: string } }) =>
    e.involvedObject?.name === name || (['Pod', 'ReplicaSet'].includes(e.involvedObject?.kind ?? '') && (e.involvedObject?.name ?? '').startsWith(`${name}-`));

  return {
    ...port,
    servicesOnCluster,

    async list(projectId: string, kind?: ServiceKind): Promise<Microservice[]> {
      const own = kind === 'PUBLIC' ? [] : (await store.list(projectId)).map(toApi);
      return kind === 'PRIVATE' ? own : [...own, ...publicServices];
    },
    get: getAny,
    async create(projectId: string, userId: string | null, body: CreateMicroserviceBody): Promise<Microservice> {
      const b = body as Required<CreateMicroserviceBody> & { registry: string | null; schema: ServiceSchema };
      if (publicService(b.name) || (await store.get(projectId, b.name))) throw new Conflict(serviceMessages.exists(b.name));
      // Kubernetes objects are named by kubeName: two services one name there would overwrite each other's deploys
      const k = kubeName(b.name);
      const clash = [...(await store.list(projectId)), ...publicServices].find((o) => kubeName(o.name) === k);
      if (clash) {
        const message = serviceMessages.kubeNameClash(b.name, clash.name, k);
        throw new Conflict(message, { fields: { name: [message] } });
      }
      try {
        return toApi(
          await store.insert({
            id: crypto.randomUUID(),
            projectId,
            name: b.name,
            description: b.description,
            registry: b.registry,
            imageRepository: b.imageRepository,
            readme: b.readme,
            schema: b.schema,
            createdBy: userId,
          }),
        );
      } catch (err) {
        if (pgCode(err) === '23505') throw new Conflict(serviceMessages.exists(b.name));
        throw err;
      }
    },
    async update(projectId: string, name: string, body: UpdateMicroserviceBody): Promise<Microservice> {
      const row = await getPrivate(projectId, name);
      const b = body as Required<UpdateMicroserviceBody> & { registry: string | null; schema: ServiceSchema };
      return toApi(
        await store.update(row.id, {
          description: b.description,
          registry: b.registry,
          imageRepository: b.imageRepository,
          readme: b.readme,
          schema: b.schema,
        }),
      );
    },
    async remove(projectId: string, name: string): Promise<void> {
      await store.delete((await getPrivate(projectId, name)).id);
    },

    /** Spec §4 paging; a registry image's tags from the registries module (503 while the registry is unavailable), a public image's from the catalogue. */
    async versions(projectId: string, name: string, q: { offset: number; limit: number }): Promise<MicroserviceVersions> {
      const svc = await getAny(projectId, name);
      if (svc.registry) return registries.versions(projectId, svc.registry, { repository: svc.imageRepository, offset: q.offset, limit: q.limit });
      const all = publicTags(svc.isPublic ? svc.name : '');
      return {
        tags: all.slice(q.offset, q.offset + q.limit).map((t) => ({ name: t, date: null, digest: null, commit: null })),
        lastElementCursor: q.offset + q.limit < all.length ? q.offset + q.limit : -1,
      };
    },

    async deployFromApi(projectId: string, clusterId: string, namespace: string, name: string, body: DeployBody, user: { id: string; email: string }) {
      const b = body as DeployBody & { deployment: { configurations: { key: string; value: string }[]; image?: string } };
      return deploy({
        projectId,
        clusterId,
        namespace,
        serviceName: name,
        version: b.version,
        configurations: b.deployment.configurations,
        autoScaling: b.autoScaling,
        image: b.deployment.image,
        initiator: { userId: user.id, email: user.email },
        commit: null,
      });
    },

    /** The project's newest deploys and undeploys of services, for the overview's timeline (`type` build answers none). */
    async timeline(projectId: string, type?: string): Promise<TimelineEvent[]> {
      if (type && type.toLowerCase() !== 'deployment') return [];
      return (await store.recentOfProject(projectId, TIMELINE_SOURCE_LIMIT)).map((r) => ({
        type: 'deployment',
        projectId,
        status: r.status,
        timestamp: (r.finishedAt ?? r.startedAt).toISOString(),
        // the deploy's own id: what tells two of them apart (the overview keys its lines by it, as an environment's)
        deploymentId: r.id,
        microserviceName: r.serviceName,
        clusterId: r.clusterId,
        namespace: r.namespace,
        version: r.version,
      }));
    },

    /** Removes exactly what deploy created (only objects labelled as Gantry's); 404 when nothing was there. */
    async undeploy(projectId: string, clusterId: string, namespace: string, name: string, user: { id: string; email: string }): Promise<{ done: true }> {
      const svc = await getAny(projectId, name);
      const removed = await onCluster(projectId, clusterId, namespace, async (kube) => {
        let any = false;
        for (const kind of OWNED_KINDS) {
          const names = kind === 'Secret' ? [pullSecretName(svc.name), envSecretName(svc.name)] : [kubeName(svc.name)];
          for (const n of names) any = (await removeOwned(kube, kind, namespace, n)) || any;
        }
        return any;
      });
      if (!removed) throw new NotFound(serviceMessages.notDeployed(svc.name, namespace));
      const last = await store.lastFinished(projectId, clusterId, namespace, svc.name);
      const row = await store.insertDeployment({
        id: crypto.randomUUID(),
        projectId,
        clusterId,
        namespace,
        serviceName: svc.name,
        isPublic: svc.isPublic,
        status: 'UNDEPLOYED',
        version: last?.version ?? '',
        previousVersion: last?.version ?? null,
        commit: null,
        description: svc.description,
        imageRepository: svc.imageRepository,
        registry: svc.registry,
        initiatorKind: 'user',
        initiatorUserId: user.id,
        initiatorEmail: user.email,
      });
      told(await store.finishDeployment(row.id, { status: 'UNDEPLOYED', error: null }));
      return { done: true };
    },

    /** Spec §3 deployment status; not deployed → deployed false with empty configurations. */
    async status(projectId: string, clusterId: string, namespace: string, name: string): Promise<DeploymentStatus> {
      const svc = await getAny(projectId, name);
      const empty: DeploymentStatus = { deployed: false, version: null, usage: null, configurations: [], replicas: null, autoScaling: null };
      return onCluster(projectId, clusterId, namespace, async (kube) => {
        const k = kubeName(svc.name);
        const live = await kube.readDeployment(namespace, k);
        if (!live || live.metadata?.labels?.[LABELS.managedBy] !== 'gantry') return empty;
        const [metrics, hpa, last] = await Promise.all([
          kube.podMetrics(namespace, podSelector(svc.name)),
          kube.hpa(namespace, k),
          store.lastFinished(projectId, clusterId, namespace, svc.name),
        ]);
        const stored = last?.status === 'SUCCEEDED' ? openConfiguration(last) : null;
        const usage =
          metrics && metrics.length
            ? {
                averageCpu: round2((metrics.reduce((a, p) => a + p.containers.reduce((c, x) => c + parseQuantity(x.usage.cpu), 0), 0) / metrics.length) * 1000),
                averageMemory: round2(
                  metrics.reduce((a, p) => a + p.containers.reduce((c, x) => c + parseQuantity(x.usage.memory), 0), 0) / metrics.length / 2 ** 20,
                ),
              }
            : null;
        return {
          deployed: true,
          version: live.metadata?.annotations?.[ANNOTATIONS.version] ?? null,
          usage,
          configurations: stored
            ? [
                ...stored.env.map((e) => ({ key: e.key, value: e.sensitive ? SENSITIVE_PLACEHOLDER : e.value })),
                ...autoScalingConfigurations(stored.autoScaling),
              ]
            : [],
          replicas: { desired: live.spec?.replicas ?? 1, ready: live.status?.readyReplicas ?? 0, available: live.status?.availableReplicas ?? 0 },
          autoScaling: hpa
            ? { minReplicas: hpa.spec?.minReplicas ?? 1, maxReplicas: hpa.spec?.maxReplicas ?? 1, currentReplicas: hpa.status?.currentReplicas ?? 0 }
            : null,
        };
      });
    },

    /** What Gantry deployed on the cluster (its associated namespace only when it has one), from the Deployments' annotations. */
    async deployed(projectId: string, clusterId: string, namespace?: string): Promise<DeployedMicroserviceList> {
      return onCluster(projectId, clusterId, namespace ?? null, async (kube, c) => {
        const list = await kube.managedDeployments(namespace ?? c.associatedNamespace);
        return {
          deployedMicroservices: list.map((d) => {
            const a = d.metadata?.annotations ?? {};
            const commit = a[ANNOTATIONS.commit];
            return {
              id: d.metadata?.uid ?? '',
              name: a[ANNOTATIONS.serviceName] ?? d.metadata?.name ?? '',
              namespace: d.metadata?.namespace ?? '',
              version: a[ANNOTATIONS.version] ?? '',
              isPublic: a[ANNOTATIONS.isPublic] === 'true',
              commit: commit
                ? { name: commit.slice(0, 7), version: commit, message: '', pipelineId: null, repository: null, user: { name: '', avatar: '' } }
                : null,
            };
          }),
        };
      });
    },

    /** The dashboard's services table (spec §2, §3 service status entry); 402 without the dashboard (the clusters port says). */
    async microservicesStatus(projectId: string, clusterId: string): Promise<MicroservicesStatus> {
      await clusters.assertDashboard(projectId);
      return { microservicesStatus: await servicesOnCluster(projectId, clusterId) };
    },

    async pods(projectId: string, clusterId: string, namespace: string, name: string): Promise<PodList> {
      const svc = await getAny(projectId, name);
      return onCluster(projectId, clusterId, namespace, async (kube) => {
        const pods = await kube.pods(namespace, podSelector(svc.name));
        return {
          pods: pods.map((p) => {
            const cs = p.status?.containerStatuses ?? [];
            const first = cs[0];
            return {
              metadata: { name: p.metadata?.name ?? '', creationTimestamp: iso(p.metadata?.creationTimestamp) },
              status: {
                phase: p.status?.phase ?? 'Unknown',
                reason: first?.state?.waiting?.reason ?? first?.state?.terminated?.reason ?? (first?.state?.running ? 'Running' : null),
                restarts: cs.reduce((n, c) => n + (c.restartCount ?? 0), 0),
                ready: cs.length > 0 && cs.every((c) => c.ready),
              },
              containers: (p.spec?.containers ?? []).map((c) => c.name),
            };
          }),
        };
      });
    },

    async events(projectId: string, clusterId: string, namespace: string, name: string): Promise<PodEventList> {
      const svc = await getAny(projectId, name);
      return onCluster(projectId, clusterId, namespace, async (kube) => {
        const k = kubeName(svc.name);
        const events = (await kube.events(namespace)).filter((e) => involves(k, e));
        const at = (e: (typeof events)[number]) => iso(e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp);
        events.sort((x, y) => (at(y) ?? '').localeCompare(at(x) ?? ''));
        return {
          events: events.map((e) => ({
            message: e.message ?? '',
            type: e.type ?? 'Normal',
            reason: e.reason ?? '',
            count: e.count ?? 1,
            firstSeen: iso(e.firstTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp),
            lastSeen: at(e),
            object: `${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}`,
          })),
        };
      });
    },

    /** Only a pod of the service: a log route must not read any pod of the namespace. */
    async logs(
      projectId: string,
      clusterId: string,
      namespace: string,
      name: string,
      q: { pod: string; container?: string; previous?: boolean; tail: number },
    ): Promise<PodLogs> {
      const svc = await getAny(projectId, name);
      return onCluster(projectId, clusterId, namespace, async (kube) => {
        await assertPodOf(kube, namespace, svc.name, q.pod);
        const logs = await kube.logs(namespace, q.pod, { container: q.container, previous: q.previous, tail: q.tail });
        return { pod: q.pod, container: q.container ?? null, logs: typeof logs === 'string' ? logs : String(logs ?? '') };
      });
    },

    /** Follows a pod's log; resolves with the stop function once connected (errors before that are thrown as usual). */
    async followLogs(
      projectId: string,
      clusterId: string,
      namespace: string,
      name: string,
      q: { pod: string; container?: string; tail: number },
      on: { text(t: string): void; end(message?: string): void },
    ): Promise<() => void> {
      const svc = await getAny(projectId, name);
      return onCluster(projectId, clusterId, namespace, async (kube) => {
        await assertPodOf(kube, namespace, svc.name, q.pod);
        return kube.follow(namespace, q.pod, { container: q.container, tail: q.tail }, { text: on.text, end: (err?: KubeFailure) => on.end(err?.message) });
      });
    },

    /** The Kubernetes Spec modal: what deploy applied, as the cluster has it now (managedFields and secret data left out). */
    async spec(projectId: string, clusterId: string, namespace: string, name: string): Promise<KubernetesSpec> {
      const svc = await getAny(projectId, name);
      return onCluster(projectId, clusterId, namespace, async (kube) => {
        const k = kubeName(svc.name);
        const found = await Promise.all(
          (
            [
              ['Deployment', k],
              ['Service', k],
              ['HorizontalPodAutoscaler', k],
            ] as const
          ).map(([kind, n]) => kube.read(kind, namespace, n)),
        );
        const objects = found
          .filter((o): o is Record<string, any> => !!o && o.metadata?.labels?.[LABELS.managedBy] === 'gantry')
          .map(({ apiVersion, kind, metadata: { managedFields: _m, ...metadata }, ...rest }) => ({ apiVersion, kind, metadata, ...rest }));
        if (!objects.length) throw new NotFound(serviceMessages.notDeployed(svc.name, namespace));
        return { objects };
      });
    },

    async history(
      projectId: string,
      name: string,
      q: { clusterId?: string; namespace?: string; offset: number; limit: number },
    ): Promise<DeploymentHistoryPage> {
      const svc = await getAny(projectId, name);
      const { rows, more } = await store.history(projectId, svc.name, q);
      return { history: rows.map(historyEntry), lastElementCursor: more ? q.offset + q.limit : -1 };
    },
  };

  async function assertPodOf(kube: ServiceKube, namespace: string, serviceName: string, pod: string) {
    const pods = await kube.pods(namespace, podSelector(serviceName));
    if (!pods.some((p) => p.metadata?.name === pod)) throw new NotFound(`Pod ${pod} is not a pod of service ${serviceName}`);
  }
}
export type ServicesService = ReturnType<typeof createServicesService>;
