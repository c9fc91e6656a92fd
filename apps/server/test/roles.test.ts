import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startSmtp, type SmtpStandIn } from '@gantry/test-support';
import { startRoles } from './helpers.js';

/** `gantry serve` and `gantry worker` on one database: the api answers and queues, the worker runs the jobs and serves nothing. */
let smtp: SmtpStandIn;
let roles: Awaited<ReturnType<typeof startRoles>>;
let api: FastifyInstance;
let worker: FastifyInstance;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-roles-'));

beforeAll(async () => {
  smtp = await startSmtp();
  roles = await startRoles(() => ({ GANTRY_DATA_DIR: dataDir, SMTP_URL: smtp.url }));
  ({ api, worker } = roles);
}, 60_000);
afterAll(async () => {
  await roles?.close();
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
