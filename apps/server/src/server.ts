import { loadConfig } from './config.js';
import { buildApp } from './app.js';
import { listenOnPort } from './platform/listen-port.js';

/**
 * Starts a whole Gantry (API + workers + SPA) from environment-style settings; used by main, e2e and bench.
 * A worker (GANTRY_ROLE=worker) takes jobs only: it has no routes and does not listen (`url` is empty).
 */
export async function startGantry(overrides: Partial<Record<string, string>> = {}) {
  const env = { ...process.env, ...overrides };
  const config = loadConfig(env);
  let actualUrl = '';
  const app = await buildApp(config, { baseUrl: () => (config.PUBLIC_URL ?? actualUrl).replace(/\/$/, '') });
  if (config.GANTRY_ROLE === 'worker') {
    await app.ready();
    return { url: '', address: '', app, config, close: () => app.close() };
  }
  const { address, fallback } = await listenOnPort((port) => app.listen({ port, host: config.HOST }), { port: env.PORT ? config.PORT : undefined });
  const port = (app.server.address() as { port: number }).port;
  actualUrl = `http://localhost:${port}`;
  return { url: actualUrl, address, portFallback: fallback, app, config, close: () => app.close() };
}
