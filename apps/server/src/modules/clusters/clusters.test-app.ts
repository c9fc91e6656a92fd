import { createTestApp } from '../../../test/helpers.js';
import type { ModuleOverrides } from '../../app.js';

/**
 * createTestApp (users, projects, billing, guards and the clusters module on a fresh database). Clusters are
 * test-support's Kubernetes API stand-in (startKubeStandin), reached through the real adapter.
 */
export async function createClustersTestApp(o: { env?: Record<string, string>; overrides?: ModuleOverrides } = {}) {
  // the tests' clusters listen on 127.0.0.1, which the default OUTBOUND_NETWORK (lan) refuses
  const t = await createTestApp({ OUTBOUND_NETWORK: 'any', ...o.env }, { overrides: o.overrides });
  return { ...t, service: t.app.services.clusters, database: t.app.services.database };
}
