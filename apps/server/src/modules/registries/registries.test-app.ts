import { createTestApp } from '../../../test/helpers.js';
import type { ModuleOverrides } from '../../app.js';

/**
 * createTestApp (users, projects, guards and the registries module on a fresh database) with the registry
 * endpoints pointed at stand-ins: `env` may set DOCKERHUB_API_URL, DOCKERHUB_REGISTRY_URL and GITLAB_URL.
 * Registries themselves are real (test-support's startRegistry) or stand-ins the test starts.
 */
export async function createRegistriesTestApp(o: { env?: Record<string, string>; overrides?: ModuleOverrides } = {}) {
  // the tests' registries listen on 127.0.0.1, which the default OUTBOUND_NETWORK (lan) refuses
  const t = await createTestApp({ OUTBOUND_NETWORK: 'any', ...o.env }, { overrides: o.overrides });
  return { ...t, service: t.app.services.registries, database: t.app.services.database };
}
