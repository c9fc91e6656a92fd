import type { Db } from '../../platform/db.js';
import type { ReadCache } from '../../platform/read-cache.js';
import type { Guards } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/secrets.js';
import type { Hooks } from '../../platform/hooks.js';
import { createCloudVerifier, type CloudVerifier } from '../../integrations/cloud-verify/index.js';
import { createCloudAccountsStore } from './cloud-accounts.store.js';
import { createCloudAccountsService } from './cloud-accounts.service.js';
import { cloudAccountsRoutes } from './cloud-accounts.routes.js';
import { defineModule } from '../../platform/module.js';

/**
 * The cloud-accounts service with its verifier and routes (the module below; a test builds a second one):
 * `service` (also `service.credentialsFor` for deployments) and `routes` for /ms-aws.
 */
export function createCloudAccountsModule(deps: {
  db: Db;
  /** The database's read cache: an account is read once until the accounts change. */
  cache?: ReadCache;
  secrets: SecretBox;
  guards: Guards;
  /** Hand in a verifier (tests); by default the real SDK adapters with Gantry's own identities. */
  verifier?: CloudVerifier;
  /** Environments answer `cloudAccountUsers`; an account in use is not removed. */
  hooks: Pick<Hooks, 'cloudAccountUsers'>;
  log?: { warn(obj: object, msg?: string): void };
}) {
  const verifier = deps.verifier ?? createCloudVerifier();
  const service = createCloudAccountsService({
    store: createCloudAccountsStore(deps.db, deps.cache),
    secrets: deps.secrets,
    verifier,
    usedBy: async (projectId, ref) => (await deps.hooks.cloudAccountUsers.collect(projectId, ref)).flat(),
    log: deps.log,
  });
  return { service, verifier, routes: cloudAccountsRoutes({ cloudAccounts: service, guards: deps.guards }) };
}

/** AWS, GCP and Azure accounts of a project; environments answer cloudAccountUsers. */
export const cloudAccountsModule = defineModule({
  name: 'cloudAccounts',
  create(platform, _needs: object, overrides: { verifier?: CloudVerifier }) {
    const { service, routes } = createCloudAccountsModule({
      db: platform.db,
      cache: platform.database.cache,
      secrets: platform.secrets,
      guards: platform.guards,
      verifier: overrides.verifier,
      hooks: platform.hooks,
      log: platform.log,
    });
    return { api: service, routes: [{ prefix: '/ms-aws', plugin: routes }] };
  },
});
