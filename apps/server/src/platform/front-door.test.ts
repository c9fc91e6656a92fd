import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFrontDoor, STARTING_HEADER, type FrontDoor } from './front-door.js';

let dist: string;
let front: FrontDoor;
let url: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-front-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dist, 'assets/index-abc123.js'), 'console.log(1);\n');
  front = await openFrontDoor(dist);
  url = (await front.listen(0, '127.0.0.1')).replace('127.0.0.1', 'localhost');
});
afterAll(async () => {
  await front.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the front door', () => {
  it('answers the SPA while the app starts, and API calls with a 503 the client may send again', async () => {
    const page = await fetch(`${url}/projects`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="root"');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const script = await fetch(`${url}/assets/index-abc123.js`);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const p of ['/ms-project/projects', '/healthz', '/docs']) {
      const api = await fetch(url + p, { method: p === '/healthz' ? 'GET' : 'POST', body: p === '/healthz' ? undefined : '{}' });
      expect(api.status).toBe(503);
      expect(api.headers.get('retry-after')).toBe('1');
      expect(api.headers.get(STARTING_HEADER)).toBe('1');
      expect(await api.json()).toEqual({ message: 'Gantry is starting; try again in a moment', code: 'Starting' });
    }
  });

  it('hands the same server, connections and all, to the app once it is ready', async () => {
    const app = Fastify({ serverFactory: front.serverFactory });
    app.get('/healthz', async () => ({ ok: true }));
    await app.ready();
    expect(app.server).toBe(front.server);
    // a kept-alive connection of the starting phase is answered by the app after the hand-over
    const agent = { keepalive: true } as const;
    expect((await fetch(`${url}/healthz`, agent)).status).toBe(503);
    front.handOver();
    const ready = await fetch(`${url}/healthz`, agent);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ok: true });
    await app.close();
    // Fastify leaves a server it did not listen on open: the front door closes it
    expect(front.server.listening).toBe(true);
  });
});
