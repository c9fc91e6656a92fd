import crypto from 'node:crypto';
import {
  GANTRY_IMAGE_LABELS,
  REGISTRY_CREDENTIAL_KEYS,
  SENSITIVE_PLACEHOLDER,
  isRegistryProvider,
  maskedCredentials,
  parseRegistryUrl,
  registryCredentialErrors,
  registryMessages,
  type ContainerScan,
  type CreateRegistryBody,
  type DockerRegistry,
  type DockerRepositoryList,
  type ImageCommit,
  type ImageTag,
  type RegistryProvider,
  type RepositoryVersions,
  type UpdateRegistryBody,
} from '@gantry/contracts';
import type { SecretBox } from '../../platform/secrets.js';
import { AppError, Conflict, NotFound, Upstream, Validation } from '../../platform/errors.js';
import { RegistryFailure, errorMessage, type RegistryAdapters, type RegistryTag } from '../../integrations/registries/index.js';
import type { RegistriesPort, RegistryPushTarget } from './registries.port.js';
import type { RegistriesStore, RegistryRow } from './registries.store.js';

interface Log {
  warn(obj: object, msg?: string): void;
}

/** The most tags one versions request describes (a tag costs a manifest and a config read on a v2 registry). */
const MAX_TAGS = 1000;

function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** Newest first, `latest` always first, undated last, then by name. */
export function sortTags<T extends { name: string; date: string | null }>(tags: T[]): T[] {
  const time = (t: T) => (t.date ? Date.parse(t.date) || 0 : -Infinity);
  return [...tags].sort((a, b) => (a.name === 'latest' ? -1 : b.name === 'latest' ? 1 : time(b) - time(a) || a.name.localeCompare(b.name)));
}

/** The commit an image was built from, from its labels (GANTRY_IMAGE_LABELS); null without a revision label. */
export function commitFromLabels(labels: Record<string, string> | undefined): ImageCommit | null {
  const sha = labels?.[GANTRY_IMAGE_LABELS.revision];
  if (!sha) return null;
  return {
    sha,
    message: labels[GANTRY_IMAGE_LABELS.message] ?? '',
    name: sha.slice(0, 7),
    user: { name: labels[GANTRY_IMAGE_LABELS.author] ?? '', avatar: labels[GANTRY_IMAGE_LABELS.avatar] ?? '' },
  };
}

/** Where a registry_url leads, as its adapters connect to it: scheme and host[:port]; the path does not count. */
function registryOrigin(url: string | undefined): string {
  if (!url) return '';
  const { tls, host } = parseRegistryUrl(url);
  return `${tls ? 'https' : 'http'}://${host}`;
}

export function createRegistriesService(deps: { store: RegistriesStore; secrets: SecretBox; adapters: RegistryAdapters; log?: Log }) {
  const { store, secrets, adapters } = deps;

  const providerOf = (p: string): RegistryProvider => {
    if (!isRegistryProvider(p))
      throw new Validation(registryMessages.unsupportedProvider, { provider: [registryMessages.unsupportedProvider] }, 'UnsupportedProvider');
    return p;
  };
  const sensitiveKeys = (provider: RegistryProvider) => new Set(REGISTRY_CREDENTIAL_KEYS[provider].filter((k) => k.sensitive).map((k) => k.key));

  /** Every credential of a row, the sealed ones opened. */
  function valuesOf(row: RegistryRow): Record<string, string> {
    return { ...row.credentials, ...(JSON.parse(secrets.open(row.secretsSealed)) as Record<string, string>) };
  }
  function toApi(row: RegistryRow): DockerRegistry {
    const provider = providerOf(row.provider);
    const present = Object.fromEntries(
      REGISTRY_CREDENTIAL_KEYS[provider].map((k) => [k.key, k.sensitive ? SENSITIVE_PLACEHOLDER : row.credentials[k.key]]).filter(([, v]) => v !== undefined),
    );
    return {
      registryName: row.name,
      isDefault: row.isDefault,
      provider,
      credentials: maskedCredentials(provider, present as Record<string, string>),
      createdAt: row.createdAt.toISOString(),
    };
  }
  /** The provider's keys from a body (unknown keys dropped), `kept` filling sensitive ones sent as the placeholder, empty or not at all. */
  function collect(provider: RegistryProvider, sent: { key: string; value: string }[], kept: Record<string, string> = {}): Record<string, string> {
    const byKey = new Map(sent.map((c) => [c.key, c.value.trim()]));
    const sensitive = sensitiveKeys(provider);
    const out: Record<string, string> = {};
    const keptKeys: string[] = [];
    for (const { key } of REGISTRY_CREDENTIAL_KEYS[provider]) {
      const v = byKey.get(key);
      if (sensitive.has(key) && (v === undefined || v === '' || v === SENSITIVE_PLACEHOLDER) && kept[key] !== undefined) {
        out[key] = kept[key];
        keptKeys.push(key);
      } else if (v !== undefined) out[key] = v;
    }
    // A kept secret goes only to the host it was given for: with another registry_url host, Gantry would hand the
    // stored password or token to any server a write member names (the API never answers it).
    if (keptKeys.length && kept.registry_url !== undefined && registryOrigin(out.registry_url) !== registryOrigin(kept.registry_url)) {
      const labels = new Map(REGISTRY_CREDENTIAL_KEYS[provider].map((k) => [k.key, k.label]));
      const fields = Object.fromEntries(keptKeys.map((k) => [k, [registryMessages.secretForNewUrl(labels.get(k)!)]]));
      throw new Validation(Object.values(fields)[0]![0]!, fields);
    }
    const errors = registryCredentialErrors(provider, out);
    if (Object.keys(errors).length) throw new Validation(Object.values(errors)[0]![0]!, errors);
    return out;
  }
  function split(provider: RegistryProvider, values: Record<string, string>) {
    const sensitive = sensitiveKeys(provider);
    const plain = Object.fromEntries(Object.entries(values).filter(([k]) => !sensitive.has(k)));
    const hidden = Object.fromEntries(Object.entries(values).filter(([k]) => sensitive.has(k)));
    return { credentials: plain, secretsSealed: secrets.seal(JSON.stringify(hidden)) };
  }
  async function verify(provider: RegistryProvider, values: Record<string, string>) {
    try {
      await adapters(provider, values).verify();
    } catch (err) {
      const reason = errorMessage(err);
      deps.log?.warn({ provider, reason }, 'docker registry refused the credentials');
      throw new AppError(400, registryMessages.verifyFailed(provider, reason), 'RegistryVerifyFailed', { reason });
    }
  }
  async function getRow(projectId: string, name: string): Promise<RegistryRow> {
    const row = await store.get(projectId, name);
    if (!row) throw new NotFound(registryMessages.notFound);
    return row;
  }
  /** A provider failure on a read: 503 when the registry is busy (the web retries), else 502 with its reason. */
  function upstream(err: unknown): never {
    if (err instanceof RegistryFailure) {
      if (err.unavailable) throw new AppError(503, `The registry is unavailable, please retry: ${err.message}`, 'RegistryUnavailable');
      if (err.status === 404) throw new NotFound(err.message);
      throw new Upstream(err.message);
    }
    throw err;
  }
  const open = (row: RegistryRow) => adapters(providerOf(row.provider), valuesOf(row));

  const port: RegistriesPort = {
    async pushTarget(projectId, registryName): Promise<RegistryPushTarget> {
      const row = registryName ? await store.get(projectId, registryName) : await store.getDefault(projectId);
      if (!row) throw new NotFound(registryName ? registryMessages.notFound : 'This project has no default Docker registry');
      try {
        const t = await open(row).pushTarget();
        return { registryName: row.name, provider: providerOf(row.provider), ...t };
      } catch (err) {
        return upstream(err);
      }
    },
    async registryScan(projectId, registryName, repository, digest): Promise<ContainerScan | null> {
      const row = await getRow(projectId, registryName);
      try {
        return await open(row).scan(repository, digest);
      } catch (err) {
        return upstream(err);
      }
    },
  };

  return {
    ...port,
    async list(projectId: string): Promise<DockerRegistry[]> {
      return (await store.list(projectId)).map(toApi);
    },
    async get(projectId: string, name: string): Promise<DockerRegistry> {
      return toApi(await getRow(projectId, name));
    },
    /** Adds a registry once its provider accepted the credentials; nothing is saved otherwise. */
    async create(projectId: string, userId: string | null, body: CreateRegistryBody): Promise<DockerRegistry> {
      const provider = providerOf(body.provider);
      const values = collect(provider, body.credentials);
      if (await store.get(projectId, body.name)) throw new Conflict(registryMessages.exists(body.name));
      await verify(provider, values);
      try {
        return toApi(
          await store.insert({
            id: crypto.randomUUID(),
            projectId,
            name: body.name,
            provider,
            isDefault: body.isDefault,
            ...split(provider, values),
            createdBy: userId,
          }),
        );
      } catch (err) {
        if (pgCode(err) === '23505') throw new Conflict(registryMessages.exists(body.name));
        throw err;
      }
    },
    /** Name and provider stay; a sensitive value sent as '(sensitive)', empty or not at all keeps the stored one. */
    async update(projectId: string, name: string, body: UpdateRegistryBody): Promise<DockerRegistry> {
      const row = await getRow(projectId, name);
      const provider = providerOf(row.provider);
      const values = collect(provider, body.credentials, valuesOf(row));
      await verify(provider, values);
      return toApi(await store.update(row, { isDefault: body.isDefault, ...split(provider, values) }));
    },
    async remove(projectId: string, name: string): Promise<void> {
      await store.delete((await getRow(projectId, name)).id);
    },
    async repositories(projectId: string, name: string): Promise<DockerRepositoryList> {
      const row = await getRow(projectId, name);
      try {
        return { repositories: (await open(row).listRepositories()).map((n) => ({ name: n })) };
      } catch (err) {
        return upstream(err);
      }
    },
    /** One page of a repository's tags, newest first with `latest` first; commits read from the page's image labels. */
    async versions(projectId: string, name: string, q: { repository: string; offset: number; limit: number }): Promise<RepositoryVersions> {
      const row = await getRow(projectId, name);
      const adapter = open(row);
      try {
        const all = sortTags((await adapter.listTags(q.repository)).slice(0, MAX_TAGS));
        const page = all.slice(q.offset, q.offset + q.limit);
        const tags = await Promise.all(
          page.map(async (t: RegistryTag): Promise<ImageTag> => {
            let labels = t.labels;
            if (labels === undefined) {
              labels = await adapter.labels(q.repository, t.name).catch((err: unknown) => {
                if (err instanceof RegistryFailure && err.unavailable) throw err;
                deps.log?.warn({ registry: row.name, repository: q.repository, tag: t.name, reason: errorMessage(err) }, 'image labels not readable');
                return {};
              });
            }
            return { name: t.name, date: t.date, digest: t.digest, commit: commitFromLabels(labels) };
          }),
        );
        return { tags, lastElementCursor: q.offset + q.limit < all.length ? q.offset + q.limit : -1 };
      } catch (err) {
        return upstream(err);
      }
    },
    /** Never fails: a deploy records the commit when the registry tells it, and goes on without it otherwise. */
    async commitOf(projectId: string, name: string, q: { repository: string; tag: string }): Promise<ImageCommit | null> {
      try {
        return commitFromLabels(await open(await getRow(projectId, name)).labels(q.repository, q.tag));
      } catch (err) {
        deps.log?.warn({ registry: name, repository: q.repository, tag: q.tag, reason: errorMessage(err) }, 'image labels not readable');
        return null;
      }
    },
  };
}
export type RegistriesService = ReturnType<typeof createRegistriesService>;
