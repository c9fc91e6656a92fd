import { loadConfig } from './config.js';
import { openFrontDoor } from './platform/front-door.js';
import { listenOnPort } from './platform/listen-port.js';
import { webDistOf } from './platform/spa.js';

/**
 * Starts a whole Gantry (API + workers + SPA) from environment-style settings; used by main, e2e and bench.
 * A worker (GANTRY_ROLE=worker) takes jobs only: it has no routes and does not listen (`url` is empty).
 * Otherwise the port answers first (the SPA, and 503 "starting" for the API) and the app, loaded
 * afterwards, takes the server over once it is ready; this resolves then.
 */
export async function startGantry(overrides: Partial<Record<string, string>> = {}) {
  const env = { ...process.env, ...overrides };
  const config = loadConfig(env);
  let actualUrl = '';
  const baseUrl = () => (config.PUBLIC_URL ?? actualUrl).replace(/\/$/, '');
  if (config.GANTRY_ROLE === 'worker') {
    const { buildApp } = await import('./app.js');
    const app = await buildApp(config, { baseUrl, warmBoxNetworks: true });
    await app.ready();
    return { url: '', address: '', app, config, close: () => app.close() };
  }
  const front = await openFrontDoor(webDistOf(config));
  const { address, fallback } = await listenOnPort((port) => front.listen(port, config.HOST), { port: env.PORT ? config.PORT : undefined });
  const port = (front.server.address() as { port: number }).port;
  actualUrl = `http://localhost:${port}`;
  try {
    // loaded only now: the modules (and what they import) are most of the start-up time
    const { buildApp } = await import('./app.js');
    const app = await buildApp(config, { baseUrl, serverFactory: front.serverFactory, warmBoxNetworks: true });
    await app.ready();
    front.handOver();
    const close = async () => {
      await app.close();
      await front.close();
    };
    return { url: actualUrl, address, portFallback: fallback, app, config, close };
  } catch (err) {
    await front.close();
    throw err;
  }
}
