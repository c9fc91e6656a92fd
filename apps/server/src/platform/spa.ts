import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Hashed build output (Vite's assets/): its name changes with its content, so browsers keep it for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built web app: GANTRY_WEB_DIST, else apps/web/dist of this checkout. */
export const webDistOf = (config: { GANTRY_WEB_DIST?: string }) =>
  config.GANTRY_WEB_DIST ? path.resolve(config.GANTRY_WEB_DIST) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Serves the built SPA: files of `webDist` (their .br/.gz siblings when the browser takes them),
 * and index.html for every other path that is not an API one, so client routes load on refresh.
 */
export async function serveSpa(app: FastifyInstance, webDist: string): Promise<boolean> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: webDist,
    prefix: '/',
    wildcard: false,
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, file) => reply.header('cache-control', path.relative(webDist, file).startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache'),
  });
  const indexHtml = fs.readFileSync(path.join(webDist, 'index.html'));
  app.get('/*', { schema: { hide: true } }, (req, reply) => {
    const p = req.url.split('?')[0]!;
    if (p.startsWith('/ms-') || p.startsWith('/docs')) return reply.status(404).send({ message: `Route GET ${p} not found`, code: 'NotFound' });
    const file = path.join(webDist, path.normalize(p));
    if (file.startsWith(webDist) && p !== '/' && fs.existsSync(file) && fs.statSync(file).isFile()) return reply.sendFile(path.relative(webDist, file));
    return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
  });
  return true;
}
