import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../platform/db.js';
import type { Guards } from '../../platform/auth.js';
import type { ArtifactStore } from '../../platform/artifacts.js';
import type { Permission } from '@gantry/contracts';
import type { PipelinesService } from '../pipelines/pipelines.service.js';
import { createComponentBuilds } from '../builds/component-packaging.js';
import { createComponentsStore } from './components.store.js';
import { createComponentsService, type UsedByEnvironments } from './components.service.js';
import { componentsRoutes } from './components.routes.js';

/** The vendor components shipped with Gantry: apps/server/vendor-components/<folder>. */
export const DEFAULT_VENDOR_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../vendor-components');

/**
 * The components module, wired once in app.ts: `service` (components for environments and
 * deployments: `visibleRow`, `versions`, `versionSchema`, `extract`; `seedVendor()` once at start;
 * `countsFor` for the projects list) and `routes` to register under /ms-engine.
 */
export function createComponentsModule(deps: {
  db: Db;
  guards: Guards;
  artifacts: ArtifactStore;
  pipelines: Pick<PipelinesService, 'get' | 'spec' | 'byIdAnyProject'>;
  permission: (projectId: string, userId: string) => Promise<Permission | undefined>;
  usedByEnvironments?: UsedByEnvironments;
  vendorRoot?: string;
}) {
  const service = createComponentsService({
    store: createComponentsStore(deps.db),
    builds: createComponentBuilds({ db: deps.db, artifacts: deps.artifacts }),
    pipelines: deps.pipelines,
    permission: deps.permission,
    usedByEnvironments: deps.usedByEnvironments,
    vendorRoot: deps.vendorRoot ?? DEFAULT_VENDOR_ROOT,
  });
  return { service, routes: componentsRoutes({ components: service, guards: deps.guards }) };
}
