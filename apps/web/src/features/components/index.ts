/**
 * The components feature's public surface: its routes, and what the environment screens read of components —
 * the list, a component's versions and a version's schema — under this feature's query keys, so what changes a
 * component refreshes what the environments show.
 */
export { componentRoutes } from './routes';
export { listComponents, useComponents } from './api/list-components';
export { componentVersionsQuery, listComponentVersions, useComponentVersions } from './api/list-component-versions';
export { getVersionSchema, useVersionSchema, versionSchemaQuery } from './api/get-version-schema';
