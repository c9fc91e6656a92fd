import type { Db } from '../../platform/db.js';
import type { Guards } from '../../platform/auth.js';
import type { SecretBox } from '../../platform/secrets.js';
import { defineModule } from '../../platform/module.js';
import { createRegistryAdapters, registryFetchWithin, type RegistryAdapters } from '../../integrations/registries/index.js';
import { createRegistriesStore } from './registries.store.js';
import { createRegistriesService } from './registries.service.js';
import { registriesRoutes } from './registries.routes.js';

/** The registries service with its adapters and routes (the module below; a test builds a second one). */
export function createRegistriesModule(deps: {
  db: Db;
  secrets: SecretBox;
  guards: Guards;
  adapters: RegistryAdapters;
  log?: { warn(obj: object, msg?: string): void };
}) {
  const service = createRegistriesService({ store: createRegistriesStore(deps.db), secrets: deps.secrets, adapters: deps.adapters, log: deps.log });
  return { service, routes: registriesRoutes({ registries: service, guards: deps.guards }) };
}

/** Docker registries of a project (/ms-kube/projects/:projectId/docker-registries); builds push through its port. */
export const registriesModule = defineModule({
  name: 'registries',
  create(platform, _needs: object, overrides: { adapters?: RegistryAdapters }) {
    const adapters =
      overrides.adapters ??
      createRegistryAdapters({
        dockerhubApiUrl: platform.config.DOCKERHUB_API_URL,
        dockerhubRegistryUrl: platform.config.DOCKERHUB_REGISTRY_URL,
        gitlabUrl: platform.config.GITLAB_URL,
        registryFetch: registryFetchWithin(platform.config.OUTBOUND_NETWORK),
      });
    const { service, routes } = createRegistriesModule({ db: platform.db, secrets: platform.secrets, guards: platform.guards, adapters, log: platform.log });
    return { api: service, routes: [{ prefix: '/ms-kube', plugin: routes }] };
  },
});
