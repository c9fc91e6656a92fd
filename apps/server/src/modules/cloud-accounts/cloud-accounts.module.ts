import type { Db } from '../../platform/db.js';
import type { Guards } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/secrets.js';
import { createCloudVerifier, type CloudVerifier } from '../../integrations/cloud-verify/index.js';
import { createCloudAccountsStore } from './cloud-accounts.store.js';
import { createCloudAccountsService, type CloudAccountUsedBy } from './cloud-accounts.service.js';
import { cloudAccountsRoutes } from './cloud-accounts.routes.js';

/**
 * The cloud-accounts module, wired once in app.ts: `service` (also `service.credentialsFor` for deployments)
 * and `routes` to register under /ms-aws.
 */
export function createCloudAccountsModule(deps: {
  db: Db;
  secrets: SecretBox;
  guards: Guards;
  /** Hand in a verifier (tests); by default the real SDK adapters with Gantry's own identities. */
  verifier?: CloudVerifier;
  usedBy?: CloudAccountUsedBy;
  log?: { warn(obj: object, msg?: string): void };
}) {
  const verifier = deps.verifier ?? createCloudVerifier();
  const service = createCloudAccountsService({ store: createCloudAccountsStore(deps.db), secrets: deps.secrets, verifier, usedBy: deps.usedBy, log: deps.log });
  return { service, verifier, routes: cloudAccountsRoutes({ cloudAccounts: service, guards: deps.guards }) };
}
