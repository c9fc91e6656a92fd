import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startSmtp, type SmtpStandIn } from '@gantry/test-support';
import { loadConfig } from '../src/config.js';
import { buildApp } from '../src/app.js';
import { openTestDatabase } from './helpers.js';

/** `gantry serve` and `gantry worker` on one database: the api answers and queues, the worker runs the jobs and serves nothing. */
let smtp: SmtpStandIn;
let database: Awaited<ReturnType<typeof openTestDatabase>>;
let api: FastifyInstance;
let worker: FastifyInstance;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-roles-'));

const appOf = (role: 'api' | 'worker') =>
  buildApp(
    loadConfig({
      GANTRY_ROLE: role,
      GANTRY_DATA_DIR: dataDir,
      GANTRY_LOG_LEVEL: 'silent',
      GANTRY_RATE_LIMIT: 'false',
      GANTRY_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
      PUBLIC_URL: 'http://gantry.test',
      SMTP_URL: smtp.url,
    }),
    { database },
  );

beforeAll(async () => {
  smtp = await startSmtp();
  database = await openTestDatabase();
  api = await appOf('api');
  await api.ready();
  worker = await appOf('worker');
  await worker.ready();
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await api?.close();
  await database?.drop();
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('process roles', () => {
  it('a worker mounts no routes, not even the health check or the SPA', async () => {
    expect((await worker.inject({ url: '/healthz' })).statusCode).toBe(404);
    expect((await worker.inject({ url: '/ms-project/projects' })).statusCode).toBe(404);
    expect((await api.inject({ url: '/healthz' })).json()).toMatchObject({ ok: true });
  });

  it('a mail queued by the api process is delivered by the worker', async () => {
    const email = 'roles@example.com';
    const res = await api.inject({
      method: 'POST',
      url: '/ms-usermanagement/auth/sign-up',
      payload: { username: email, password: 'Passw0rdX', firstName: 'Ro', lastName: 'Les' },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const mail = await smtp.waitFor(email, 30_000);
    expect(mail.subject).toBeTruthy();
  });
});
