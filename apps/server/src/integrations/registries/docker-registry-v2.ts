import { parseRegistryUrl } from '@gantry/contracts';
import pMap from 'p-map';
import { createV2Client } from './v2-client.js';
import { RegistryFailure, type RegistryAdapter } from './types.js';

/** Tags described at once (manifest + config each) when listing a repository's versions. */
const DESCRIBE_CONCURRENCY = 8;

/**
 * A plain Docker Registry v2 (Distribution, Harbor, GHCR, Quay…): registry_url is host[:port] with an optional
 * path, which becomes the push prefix and filters the catalog. http:// means plain HTTP.
 */
export function dockerRegistryV2Adapter(c: {
  registryUrl: string;
  username: string;
  password: string;
  fetch?: typeof fetch;
  pageSize?: number;
}): RegistryAdapter {
  const { tls, host, path: prefix } = parseRegistryUrl(c.registryUrl);
  const client = createV2Client({
    baseUrl: `${tls ? 'https' : 'http'}://${host}`,
    username: c.username,
    password: c.password,
    fetch: c.fetch,
    pageSize: c.pageSize,
  });
  const full = (repository: string) => (prefix ? `${prefix}/${repository}` : repository);
  return {
    verify: () => client.ping(),
    async listRepositories() {
      const all = await client.catalog();
      return (prefix ? all.filter((r) => r.startsWith(`${prefix}/`)).map((r) => r.slice(prefix.length + 1)) : all).sort();
    },
    async listTags(repository) {
      const names = await client.tags(full(repository));
      return pMap(names, (tag) => client.describe(full(repository), tag), { concurrency: DESCRIBE_CONCURRENCY });
    },
    async labels(repository, tag) {
      return (await client.describe(full(repository), tag)).labels ?? {};
    },
    async pushTarget() {
      if (!host) throw new RegistryFailure('The registry URL names no host');
      return { host, repositoryPrefix: prefix, username: c.username, password: c.password, tls };
    },
    scan: async () => null,
  };
}
