import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, bearer, createProject, createTestApp, registerUser, type TestApp } from './helpers.js';

/**
 * Who may call a route is checked before what they sent (app.ts moves every route's guard to preValidation): a Read
 * member posting an invalid body to a write route is refused (403) and never learns the body's rules; a Write member
 * sending the same body gets the validation error (400).
 */
let t: TestApp;
let projectId: string;
const members: Record<'read' | 'write', string> = { read: '', write: '' };

beforeAll(async () => {
  t = await createTestApp();
  const owner = await registerUser(t, 'owner@example.com');
  projectId = await createProject(t, owner.idToken, 'Alpha');
  for (const p of ['read', 'write'] as const) members[p] = (await addMember(t, owner.idToken, projectId, `${p}@example.com`, p)).idToken;
}, 120_000);
afterAll(async () => t?.close());

/** Write routes of different modules, each sent a body its schema refuses. */
const writes = () =>
  [
    { module: 'pipelines', method: 'POST', url: `/ms-ap/projects/${projectId}/pipelines`, payload: { name: 42 } },
    { module: 'stages', method: 'POST', url: `/ms-engine/projects/${projectId}/stages`, payload: {} },
    { module: 'registries', method: 'POST', url: `/ms-kube/projects/${projectId}/docker-registries`, payload: { name: '' } },
    { module: 'schedules', method: 'POST', url: `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`, payload: { days: 'every' } },
    { module: 'notifications', method: 'POST', url: `/ms-notification/projects/${projectId}/integrations`, payload: {} },
  ] as const;

describe('a write route checks the role before the body', () => {
  it('a Read member sending an invalid body is refused (403), not told what is wrong with it', async () => {
    for (const r of writes()) {
      const res = await t.app.inject({ method: r.method, url: r.url, headers: bearer(members.read), payload: r.payload });
      expect(res.statusCode, `${r.module}: ${res.body}`).toBe(403);
      expect(res.json().message, r.module).toMatch(/permission \(read\)/);
    }
  });

  it('a Write member sending the same body gets its validation error (400)', async () => {
    for (const r of writes()) {
      const res = await t.app.inject({ method: r.method, url: r.url, headers: bearer(members.write), payload: r.payload });
      expect(res.statusCode, `${r.module}: ${res.body}`).toBe(400);
    }
  });
});
