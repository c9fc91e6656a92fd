import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineModule } from '../../platform/module.js';
import type { ProjectsService } from '../projects/projects.port.js';
import type { PipelinesApi } from '../pipelines/pipelines.port.js';
import { createComponentsStore } from './components.store.js';
import { createComponentsService, type UsedByEnvironments } from './components.service.js';
import { componentsRoutes } from './components.routes.js';

/** The vendor components shipped with Gantry: apps/server/vendor-components/<folder>. */
export const DEFAULT_VENDOR_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../vendor-components');

/**
 * Components for environments and deployments (`visibleRow`, `versions`, `versionSchema`, `extract`);
 * counts them per project, and asks componentUsers before a component goes.
 */
export const componentsModule = defineModule({
  name: 'components',
  create(platform, needs: { projects: ProjectsService; pipelines: PipelinesApi }, overrides: { usedByEnvironments?: UsedByEnvironments; vendorRoot?: string }) {
    const { hooks } = platform;
    const components = createComponentsService({
      store: createComponentsStore(platform.db, platform.database.cache),
      builds: needs.pipelines.componentBuilds,
      pipelines: needs.pipelines.pipelines,
      permission: (projectId, userId) => needs.projects.permission(projectId, userId),
      projectNames: (ids) => needs.projects.names(ids),
      usedByEnvironments: overrides.usedByEnvironments ?? (async (componentId) => (await hooks.componentUsers.collect(componentId)).flat()),
      vendorRoot: overrides.vendorRoot ?? DEFAULT_VENDOR_ROOT,
    });
    hooks.projectCounts.provide(
      async (projectIds) => new Map([...(await components.countsFor(projectIds))].map(([id, n]) => [id, { componentsCount: n }])),
      components.countsForReads,
    );
    return {
      api: components,
      routes: [{ prefix: '/ms-engine', plugin: componentsRoutes({ components, guards: platform.guards }) }],
      async start() {
        await components.seedVendor();
      },
    };
  },
});
