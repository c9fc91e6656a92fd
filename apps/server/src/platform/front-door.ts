import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyServerFactory } from 'fastify';
import { securityHeaders } from './security-headers.js';
import { serveSpa } from './spa.js';

/** Set on the 503 an API call gets while Gantry starts: the web client waits and sends the call again. */
export const STARTING_HEADER = 'x-gantry-starting';

/**
 * The HTTP server of a process that serves HTTP, listening before the app is built (issue 14: the
 * first answer within seconds). Until `handOver`, a small app answers it: the built SPA, and a 503
 * "starting" with Retry-After for API calls, socket.io and /healthz while the modules load and the
 * migrations and job queue start. The full app is then made on the same server (`serverFactory`),
 * so no connection is refused or dropped in between.
 */
export async function openFrontDoor(webDist: string) {
  const server = http.createServer();
  let current: http.RequestListener | undefined;
  server.on('request', (req, res) => current!(req, res));
  /** A Fastify app on this server whose requests go through `current` once handed over. */
  const factoryFor =
    (use: (handler: http.RequestListener) => void): FastifyServerFactory =>
    (handler) => {
      use(handler);
      return server;
    };

  const starting = Fastify({ logger: false, serverFactory: factoryFor((h) => (current = h)) });
  starting.addHook('onRequest', async (req, reply) => {
    const p = req.url.split('?')[0]!;
    if (p.startsWith('/ms-') || p.startsWith('/docs') || p === '/healthz' || p.startsWith('/socket.io')) {
      return reply
        .status(503)
        .header('retry-after', '1')
        .header(STARTING_HEADER, '1')
        .header('cache-control', 'no-store')
        .send({ message: 'Gantry is starting; try again in a moment', code: 'Starting' });
    }
  });
  securityHeaders(starting);
  await serveSpa(starting, webDist);
  await starting.ready();

  let appHandler: http.RequestListener | undefined;
  return {
    server,
    /** For the full app's Fastify options: it is made on this server and answers once handed over. */
    serverFactory: factoryFor((h) => (appHandler = h)),
    listen: (port: number, host: string) =>
      new Promise<string>((resolve, reject) => {
        const failed = (err: Error) => {
          server.off('listening', listening);
          reject(err);
        };
        const listening = () => {
          server.off('error', failed);
          const a = server.address() as AddressInfo;
          resolve(`http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`);
        };
        server.once('error', failed);
        server.once('listening', listening);
        server.listen(port, host);
      }),
    /** From now on every request goes to the full app (call after its `ready()`). */
    handOver() {
      if (!appHandler) throw new Error('no app was made on the front door');
      current = appHandler;
      void starting.close();
    },
    /** Stops listening (Fastify leaves a server it did not listen on open); ends when the last connection has. */
    close: () =>
      new Promise<void>((resolve) => {
        void starting.close();
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

export type FrontDoor = Awaited<ReturnType<typeof openFrontDoor>>;
