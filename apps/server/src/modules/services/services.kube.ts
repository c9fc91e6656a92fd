import { Writable } from 'node:stream';
import type * as k8s from '@kubernetes/client-node';
import {
  DEFAULT_KUBE_TIMEOUT_MS,
  KubeFailure,
  kubeConfigFor,
  loadKubeClient,
  requestDeadline,
  toKubeFailure,
  type KubeTarget,
} from '../../integrations/kubernetes/index.js';
import { deferredMethods } from '../../platform/lazy.js';
import { assertReachable, OutboundRefused, policyOf, type OutboundNetwork } from '../../integrations/outbound/outbound.js';
import { FIELD_MANAGER, LABELS } from './services.manifests.js';

/**
 * What the services module does on a cluster, over @kubernetes/client-node 1.x: server-side apply (field manager
 * `gantry`, forced: Gantry's own objects), deletes, and the reads of a deployed service (pods, their metrics, events,
 * logs and a follow stream). Every request carries a deadline (the follow stream only while connecting) and, unless
 * OUTBOUND_NETWORK is `any`, the endpoint is checked by the outbound guard first. Failures are KubeFailures.
 */

type Obj = Record<string, any>;
export interface PodMetric {
  metadata: { name: string };
  containers: { name: string; usage: { cpu: string; memory: string } }[];
}
export type ApplyKind = 'Deployment' | 'Service' | 'HorizontalPodAutoscaler' | 'Secret';

export interface ServiceKube {
  readDeployment(namespace: string, name: string): Promise<k8s.V1Deployment | null>;
  apply(obj: Obj): Promise<Obj>;
  /** false when it was not there. */
  remove(kind: ApplyKind, namespace: string, name: string): Promise<boolean>;
  read(kind: ApplyKind, namespace: string, name: string): Promise<Obj | null>;
  /** Deployments Gantry manages, in `namespace` or everywhere. */
  managedDeployments(namespace: string | null): Promise<k8s.V1Deployment[]>;
  /** In `namespace`, or in every namespace when null. */
  pods(namespace: string | null, labelSelector?: string): Promise<k8s.V1Pod[]>;
  /** null without metrics.k8s.io (or no right to it). */
  podMetrics(namespace: string, labelSelector: string): Promise<PodMetric[] | null>;
  hpa(namespace: string, name: string): Promise<k8s.V2HorizontalPodAutoscaler | null>;
  events(namespace: string): Promise<k8s.CoreV1Event[]>;
  logs(namespace: string, pod: string, o: { container?: string; previous?: boolean; tail: number }): Promise<string>;
  /** Follows a container's log; resolves once connected, with the function that stops following. */
  follow(
    namespace: string,
    pod: string,
    o: { container?: string; tail: number },
    on: { text(t: string): void; end(err?: KubeFailure): void },
  ): Promise<() => void>;
}
export type ServiceKubeConnector = (target: KubeTarget, o?: { timeoutMs?: number }) => ServiceKube;

const METHODS: Record<keyof ServiceKube, true> = {
  readDeployment: true,
  apply: true,
  remove: true,
  read: true,
  managedDeployments: true,
  pods: true,
  podMetrics: true,
  hpa: true,
  events: true,
  logs: true,
  follow: true,
};

/** The client library is loaded, and the clients made, on the first call (issue 14: not at start-up). */
export function serviceKubeConnector(network: OutboundNetwork): ServiceKubeConnector {
  return (target, o) => deferredMethods(METHODS, async () => connectLoaded(await loadKubeClient(), network, target, o));
}

function connectLoaded(kube: typeof k8s, network: OutboundNetwork, target: KubeTarget, o: { timeoutMs?: number } = {}): ServiceKube {
  const timeoutMs = o.timeoutMs ?? DEFAULT_KUBE_TIMEOUT_MS;
  const kc = kubeConfigFor(kube, target);
  const deadline = requestDeadline(kube, timeoutMs, policyOf(network));
  const applyOptions = () => kube.setHeaderOptions('Content-Type', kube.PatchStrategy.ServerSideApply, deadline());
  const core = kc.makeApiClient(kube.CoreV1Api);
  const apps = kc.makeApiClient(kube.AppsV1Api);
  const autoscaling = kc.makeApiClient(kube.AutoscalingV2Api);
  const custom = kc.makeApiClient(kube.CustomObjectsApi);

  const reachable = async () => {
    if (network === 'any') return;
    try {
      await assertReachable(new URL(target.endpoint), network);
    } catch (err) {
      throw err instanceof OutboundRefused ? new KubeFailure('unreachable', err.message) : err;
    }
  };
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    await reachable();
    try {
      return await fn();
    } catch (err) {
      throw toKubeFailure(err, target.endpoint, timeoutMs);
    }
  };
  /** 404 → null (and, with `quiet`, 403/503: a read the answer may go without). */
  const maybe = async <T>(fn: () => Promise<T>, quiet = false): Promise<T | null> => {
    try {
      return await call(fn);
    } catch (err) {
      if (err instanceof KubeFailure && (err.o.status === 404 || (quiet && (err.o.status === 403 || err.o.status === 503)))) return null;
      throw err;
    }
  };

  const ops = {
    Deployment: {
      apply: (b: Obj) => apps.patchNamespacedDeployment(patchArgs(b), applyOptions()),
      read: (namespace: string, name: string) => apps.readNamespacedDeployment({ namespace, name }, deadline()),
      remove: (namespace: string, name: string) => apps.deleteNamespacedDeployment({ namespace, name, propagationPolicy: 'Background' }, deadline()),
    },
    Service: {
      apply: (b: Obj) => core.patchNamespacedService(patchArgs(b), applyOptions()),
      read: (namespace: string, name: string) => core.readNamespacedService({ namespace, name }, deadline()),
      remove: (namespace: string, name: string) => core.deleteNamespacedService({ namespace, name }, deadline()),
    },
    HorizontalPodAutoscaler: {
      apply: (b: Obj) => autoscaling.patchNamespacedHorizontalPodAutoscaler(patchArgs(b), applyOptions()),
      read: (namespace: string, name: string) => autoscaling.readNamespacedHorizontalPodAutoscaler({ namespace, name }, deadline()),
      remove: (namespace: string, name: string) => autoscaling.deleteNamespacedHorizontalPodAutoscaler({ namespace, name }, deadline()),
    },
    Secret: {
      apply: (b: Obj) => core.patchNamespacedSecret(patchArgs(b), applyOptions()),
      read: (namespace: string, name: string) => core.readNamespacedSecret({ namespace, name }, deadline()),
      remove: (namespace: string, name: string) => core.deleteNamespacedSecret({ namespace, name }, deadline()),
    },
  } satisfies Record<ApplyKind, unknown>;

  return {
    readDeployment: (namespace, name) => maybe(() => apps.readNamespacedDeployment({ namespace, name }, deadline())),
    apply: (obj) => call(() => ops[obj.kind as ApplyKind].apply(obj) as Promise<Obj>),
    async remove(kind, namespace, name) {
      return (await maybe(() => ops[kind].remove(namespace, name) as Promise<unknown>)) !== null;
    },
    read: (kind, namespace, name) => maybe(() => ops[kind].read(namespace, name) as Promise<Obj>),
    async managedDeployments(namespace) {
      const labelSelector = `${LABELS.managedBy}=${FIELD_MANAGER}`;
      const list = await call(() =>
        namespace
          ? apps.listNamespacedDeployment({ namespace, labelSelector }, deadline())
          : apps.listDeploymentForAllNamespaces({ labelSelector }, deadline()),
      );
      return list.items;
    },
    pods: async (namespace, labelSelector) =>
      (
        await call(() =>
          namespace ? core.listNamespacedPod({ namespace, labelSelector }, deadline()) : core.listPodForAllNamespaces({ labelSelector }, deadline()),
        )
      ).items,
    async podMetrics(namespace, labelSelector) {
      const list = await maybe(
        () =>
          custom.listNamespacedCustomObject({ group: 'metrics.k8s.io', version: 'v1beta1', namespace, plural: 'pods', labelSelector }, deadline()) as Promise<{
            items: PodMetric[];
          }>,
        true,
      );
      return list?.items ?? null;
    },
    hpa: (namespace, name) => maybe(() => autoscaling.readNamespacedHorizontalPodAutoscaler({ namespace, name }, deadline())),
    events: async (namespace) => (await call(() => core.listNamespacedEvent({ namespace }, deadline()))).items,
    logs: (namespace, pod, lo) =>
      call(() => core.readNamespacedPodLog({ namespace, name: pod, container: lo.container, previous: lo.previous, tailLines: lo.tail }, deadline())),
    async follow(namespace, pod, fo, on) {
      await reachable();
      let ended = false;
      const end = (err?: KubeFailure) => {
        if (ended) return;
        ended = true;
        on.end(err);
      };
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          on.text(chunk.toString('utf8'));
          done();
        },
      });
      sink.on('finish', () => end());
      const container = fo.container ?? (await call(() => core.readNamespacedPod({ namespace, name: pod }, deadline()))).spec?.containers[0]?.name ?? '';
      let controller: AbortController;
      try {
        controller = await new kube.Log(kc).log(namespace, pod, container, sink, { follow: true, tailLines: fo.tail });
      } catch (err) {
        throw toKubeFailure(err, target.endpoint, timeoutMs);
      }
      sink.on('error', (err) => end(toKubeFailure(err, target.endpoint, timeoutMs)));
      return () => {
        ended = true;
        controller.abort();
      };
    },
  } satisfies ServiceKube;
}

function patchArgs(b: Obj) {
  return { name: b.metadata.name as string, namespace: b.metadata.namespace as string, body: b, fieldManager: FIELD_MANAGER, force: true };
}
