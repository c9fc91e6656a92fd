import type { RegistryProvider } from '@gantry/contracts';
import { dockerRegistryV2Adapter } from './docker-registry-v2.js';
import { dockerhubAdapter } from './dockerhub.js';
import { gitlabAdapter } from './gitlab.js';
import { RegistryFailure, type RegistryAdapter } from './types.js';
import { deferredMethods } from '../../platform/lazy.js';
import { guardedFetch, OutboundRefused, type OutboundNetwork } from '../outbound/outbound.js';

export * from './types.js';
export { createV2Client, parseChallenge, nextLink } from './v2-client.js';

export interface RegistryEndpoints {
  /** Docker Hub's API (DOCKERHUB_API_URL). */
  dockerhubApiUrl: string;
  /** Docker Hub's registry (DOCKERHUB_REGISTRY_URL), for image labels. */
  dockerhubRegistryUrl: string;
  /** GitLab (GITLAB_URL; the API under /api/v4). */
  gitlabUrl: string;
  fetch?: typeof fetch;
  /** fetch for the registry URLs users type in (DockerRegistryV2, GitLab's registry): registryFetchWithin(OUTBOUND_NETWORK). */
  registryFetch?: typeof fetch;
  /** ECR scan polling (tests shorten it). */
  ecrScanPollMs?: number;
}

/** Opens one registry account by provider with its (already validated) credentials. */
export type RegistryAdapters = (provider: RegistryProvider, credentials: Record<string, string>) => RegistryAdapter;

const ADAPTER_METHODS: Record<keyof RegistryAdapter, true> = {
  verify: true,
  listRepositories: true,
  listTags: true,
  labels: true,
  pushTarget: true,
  scan: true,
};

export function createRegistryAdapters(e: RegistryEndpoints): RegistryAdapters {
  return (provider, v) => {
    const username = v.docker_username ?? '';
    const password = v.docker_password ?? '';
    switch (provider) {
      case 'Dockerhub':
        return dockerhubAdapter({ apiUrl: e.dockerhubApiUrl, registryUrl: e.dockerhubRegistryUrl, username, password, fetch: e.fetch });
      case 'Ecr': {
        const ecr = {
          accountId: v.aws_account_id!,
          region: v.aws_region!,
          accessKeyId: v.aws_access_key_id!,
          secretAccessKey: v.aws_secret_access_key!,
          scanPollMs: e.ecrScanPollMs,
          fetch: e.fetch,
        };
        // the AWS SDK's ECR client is loaded on the first call, not at start-up (issue 14)
        return deferredMethods(ADAPTER_METHODS, async () => (await import('./ecr.js')).ecrAdapter(ecr));
      }
      case 'GitlabContainerRegistry':
        return gitlabAdapter({
          gitlabUrl: e.gitlabUrl,
          registryUrl: v.registry_url!,
          hierarchy: v.gitlab_hierarchy_type === 'groups' ? 'groups' : 'projects',
          id: v.gitlab_id!,
          username,
          password,
          fetch: e.fetch,
          registryFetch: e.registryFetch ?? e.fetch,
        });
      case 'DockerRegistryV2':
        return dockerRegistryV2Adapter({ registryUrl: v.registry_url!, username, password, fetch: e.registryFetch ?? e.fetch });
    }
  };
}

/** fetch for a registry URL a user typed: only within `network`; a refusal is the registry's failure (400 on save). */
export function registryFetchWithin(network: OutboundNetwork): typeof fetch {
  const guarded = guardedFetch(network);
  return (async (input: string | URL | Request, init?: RequestInit) =>
    guarded(input, init).catch((err: unknown) => {
      throw err instanceof OutboundRefused ? new RegistryFailure(err.message) : err;
    })) as typeof fetch;
}
