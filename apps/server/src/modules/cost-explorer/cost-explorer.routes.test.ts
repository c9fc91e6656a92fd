import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { reportMessages } from '@gantry/contracts';
import { startAwsStandin, seedWasteWorld, type AwsStandin } from '@gantry/test-support';
import {
  createTestApp,
  grantPlan,
  connectAwsAccount,
  registerUser,
  createProject,
  addMember,
  bearer,
  type TestApp,
  acceptingCloudVerifier,
} from '../../../test/helpers.js';
import { expectEveryProjectRouteListed, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';

/** The cost dashboard and report routes against the AWS stand-in's Cost Explorer, with a clock the test moves. */
const ACCOUNT = '123456789012';
const NEW_ACCOUNT = '210987654321'; // connected, no costs yet: no forecast
const STAGE = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
let clock = Date.parse('2026-11-20T12:00:00Z');
let aws: AwsStandin;
let t: TestApp;
let owner: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
let starterProjectId: string;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object, pid = projectId) =>
  t.app.inject({ method, url: `/ms-cloud-cost-optimizer/projects/${pid}${url}`, headers: bearer(token), payload });
const ceCalls = () => aws.calls.filter((c) => c.service === 'ce').length;
const report = (over: object = {}) => ({
  reportName: 'Weekly costs',
  awsAccountIds: [ACCOUNT],
  regions: ['eu-west-1'],
  emails: ['ops@example.com'],
  granularity: 'WEEKLY',
  costAllocationTag: null,
  ...over,
});

beforeAll(async () => {
  aws = await startAwsStandin({ now: () => clock, world: seedWasteWorld({ stageId: STAGE, now: clock }) });
  Object.assign(process.env, aws.env());
  t = await createTestApp(
    {},
    { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier }, costExplorer: { now: () => new Date(clock), tickEveryMs: 86_400_000 } } },
  );
  owner = await registerUser(t, 'cost-owner@example.com');
  outsider = await registerUser(t, 'cost-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Costs');
  otherProjectId = await createProject(t, owner.idToken, 'Other costs');
  starterProjectId = await createProject(t, owner.idToken, 'Starter');
  reader = await addMember(t, owner.idToken, projectId, 'cost-reader@example.com', 'read');
  await grantPlan(t, owner.idToken, projectId);
  await grantPlan(t, owner.idToken, otherProjectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT, { name: 'prod' });
  await connectAwsAccount(t, owner.idToken, projectId, NEW_ACCOUNT, { name: 'sandbox' });
  await connectAwsAccount(t, owner.idToken, otherProjectId, ACCOUNT);
});
afterAll(async () => {
  await t?.close();
  await aws?.close();
});

describe('cost dashboard', () => {
  it('GET /cost answers the cache only: nothing before a refresh, never a Cost Explorer call', async () => {
    const res = await call('GET', '/cost', reader.idToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: null, fetchedAt: null, ageSeconds: null });
    expect(ceCalls()).toBe(0);
  });

  it('POST /cost/refresh asks Cost Explorer for every account and caches the dashboard with its age', async () => {
    const res = await call('POST', '/cost/refresh', owner.idToken);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ fetchedAt: '2026-11-20T12:00:00.000Z', ageSeconds: 0 });
    // the seeded account costs 3.20 (EC2, the stage's) + 1.80 (RDS) + 0.50 (S3) a day, up to yesterday
    expect(d.data).toMatchObject({
      costForTheLastMonth: 171, // 31 × 5.50 = 170.50
      costForTheCurrentMonth: 105, // 19 × 5.50 = 104.50
      byAccount: [
        { awsAccountId: ACCOUNT, accountName: 'prod', amount: 105 },
        { awsAccountId: NEW_ACCOUNT, accountName: 'sandbox', amount: 0 },
      ],
      byService: { ec2: 61, rds: 34, allServices: 105 },
      byEnvironment: [
        { tagValue: STAGE, amount: 61 },
        { tagValue: '', amount: 44 },
      ],
      // the new account has no history: it adds nothing to the estimates
      estimates: { currentMonth: 160, nextYear: 2008 },
      failures: [],
    });
    expect(d.data.yearlyByMonth.map((m: { month: string }) => m.month)).toEqual([
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
      '2026-04',
      '2026-05',
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
    ]);
    expect(d.data.yearlyByMonth[0].amount).toBe(171);

    const calls = ceCalls();
    clock += 90_000;
    const cached = await call('GET', '/cost', reader.idToken);
    expect(cached.json()).toMatchObject({ fetchedAt: '2026-11-20T12:00:00.000Z', ageSeconds: 90, data: { costForTheCurrentMonth: 105 } });
    expect(ceCalls()).toBe(calls);
  });

  it('without any history the estimates are missing (Insufficient Historical Data)', async () => {
    aws.world.forecastUnavailable = true;
    try {
      const d = (await call('POST', '/cost/refresh', owner.idToken)).json();
      expect(d.data.estimates).toEqual({ currentMonth: null, nextYear: null });
      expect(d.data.failures).toEqual([]);
    } finally {
      aws.world.forecastUnavailable = false;
    }
  });

  it('roles, another project and the plan', async () => {
    expect((await call('POST', '/cost/refresh', reader.idToken)).statusCode).toBe(403);
    expect((await call('GET', '/cost', outsider.idToken)).statusCode).toBe(404);
    expect((await call('POST', '/cost/refresh', outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', '/cost', owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('POST', '/cost/refresh', owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    // another project's cache is its own
    expect((await call('GET', '/cost', owner.idToken, undefined, otherProjectId)).json().data).toBeNull();
  });
});

describe('cost reports', () => {
  let id: string;

  it('POST /reports creates a report (e-mails stripped of spaces) with its next send time', async () => {
    const res = await call(
      'POST',
      '/reports',
      owner.idToken,
      report({ emails: [' Ops@Example.com ', 'cost-reader@example.com'], costAllocationTag: ' gantry:environment ' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    id = res.json().id;
    expect(res.json()).toMatchObject({
      reportName: 'Weekly costs',
      awsAccountIds: [ACCOUNT],
      regions: ['eu-west-1'],
      emails: ['ops@example.com', 'cost-reader@example.com'],
      granularity: 'WEEKLY',
      costAllocationTag: 'gantry:environment',
      lastSentAt: null,
      nextSendAt: '2026-11-23T00:00:00.000Z',
      lastSend: null,
    });
  });

  it('POST /reports validates the body and the accounts', async () => {
    const short = await call('POST', '/reports', owner.idToken, report({ reportName: 'ab' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain(reportMessages.name);
    expect((await call('POST', '/reports', owner.idToken, report({ awsAccountIds: [] }))).json().message).toContain(reportMessages.accounts);
    expect((await call('POST', '/reports', owner.idToken, report({ regions: [] }))).json().message).toContain(reportMessages.regions);
    expect((await call('POST', '/reports', owner.idToken, report({ emails: ['not-an-email'] }))).statusCode).toBe(400);
    expect((await call('POST', '/reports', owner.idToken, report({ granularity: 'DAILY' }))).statusCode).toBe(400);
    const unknown = await call('POST', '/reports', owner.idToken, report({ awsAccountIds: ['999999999999'] }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('999999999999 is not connected');
  });

  it('GET /reports and /reports/:id answer readers', async () => {
    const list = await call('GET', '/reports', reader.idToken);
    expect(list.statusCode).toBe(200);
    expect(list.json().reports.map((r: { id: string }) => r.id)).toEqual([id]);
    const one = await call('GET', `/reports/${id}`, reader.idToken);
    expect(one.statusCode).toBe(200);
    expect(one.json().reportName).toBe('Weekly costs');
    expect((await call('GET', '/reports/not-a-uuid', reader.idToken)).statusCode).toBe(400);
    expect((await call('GET', `/reports/${crypto.randomUUID()}`, reader.idToken)).statusCode).toBe(404);
  });

  it('PUT /reports/:id updates it', async () => {
    const res = await call(
      'PUT',
      `/reports/${id}`,
      owner.idToken,
      report({
        reportName: 'Monthly costs',
        granularity: 'MONTHLY',
        awsAccountIds: [ACCOUNT, NEW_ACCOUNT],
        emails: ['ops@example.com', 'cost-reader@example.com'],
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      reportName: 'Monthly costs',
      granularity: 'MONTHLY',
      awsAccountIds: [ACCOUNT, NEW_ACCOUNT],
      nextSendAt: '2026-12-01T00:00:00.000Z',
    });
    expect((await call('PUT', `/reports/${id}`, owner.idToken, report({ reportName: 'x' }))).statusCode).toBe(400);
  });

  it('POST /reports/:id/send mails the last full period to every address at once', async () => {
    const res = await call('POST', `/reports/${id}/send`, owner.idToken);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ sentTo: ['ops@example.com', 'cost-reader@example.com'], sentAt: new Date(clock).toISOString() });
    const mail = await t.lastMail('ops@example.com');
    expect(mail?.subject).toBe('Monthly costs: AWS costs 2026-10-01 – 2026-10-31');
    // eu-west-1 only: EC2 and RDS (31 × 5.00), not S3 (us-east-1)
    expect(mail?.text).toContain('Monthly costs: AWS costs for 2026-10-01 – 2026-10-31 in eu-west-1: $155');
    expect(mail?.text).toContain('Amazon Elastic Compute Cloud - Compute: $99');
    expect(mail?.text).not.toContain('Simple Storage');
    expect((await t.lastMail('cost-reader@example.com'))?.subject).toBe(mail?.subject);
    expect((await call('GET', `/reports/${id}`, owner.idToken)).json().lastSentAt).toBe(new Date(clock).toISOString());
    expect((await call('POST', '/reports/not-a-uuid/send', owner.idToken)).statusCode).toBe(400);
  });

  it('GET /reports and /reports/:id show every reader the outcome of the last send (no SMTP: the outbox is its delivery)', async () => {
    const sent = { trigger: 'MANUAL', at: new Date(clock).toISOString(), status: 'SENT', error: null, retryAt: null };
    expect((await call('GET', `/reports/${id}`, reader.idToken)).json().lastSend).toEqual(sent);
    expect((await call('GET', '/reports', reader.idToken)).json().reports.map((r: { lastSend: unknown }) => r.lastSend)).toEqual([sent]);
    expect((await call('GET', `/reports/${id}`, outsider.idToken)).statusCode).toBe(404);
  });

  it('roles: a reader changes nothing', async () => {
    expect((await call('POST', '/reports', reader.idToken, report())).statusCode).toBe(403);
    expect((await call('PUT', `/reports/${id}`, reader.idToken, report())).statusCode).toBe(403);
    expect((await call('DELETE', `/reports/${id}`, reader.idToken)).statusCode).toBe(403);
    expect((await call('POST', `/reports/${id}/send`, reader.idToken)).statusCode).toBe(403);
  });

  it('guards every route of the module: reader 403 on changes, another project 404, no session 401', async () => {
    const base = `/ms-cloud-cost-optimizer/projects/${projectId}`;
    const routes: GuardedRoute[] = [
      { method: 'GET', url: `${base}/cost` },
      { method: 'POST', url: `${base}/cost/refresh`, change: true },
      { method: 'GET', url: `${base}/reports` },
      { method: 'POST', url: `${base}/reports`, payload: report(), change: true },
      { method: 'GET', url: `${base}/reports/${id}` },
      { method: 'PUT', url: `${base}/reports/${id}`, payload: report(), change: true },
      { method: 'DELETE', url: `${base}/reports/${id}`, change: true },
      { method: 'POST', url: `${base}/reports/${id}/send`, change: true },
    ];
    await expectEveryProjectRouteListed(t, ['cost explorer'], routes);
    await expectProjectGuards(t, routes, { reader: reader.idToken, outsider: outsider.idToken });
  });

  it("another project: outsiders get 404, and a report is not reachable through another project's path", async () => {
    expect((await call('GET', '/reports', outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/reports/${id}`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('POST', '/reports', outsider.idToken, report())).statusCode).toBe(404);
    for (const [method, url, payload] of [
      ['GET', `/reports/${id}`, undefined],
      ['PUT', `/reports/${id}`, report()],
      ['DELETE', `/reports/${id}`, undefined],
      ['POST', `/reports/${id}/send`, undefined],
    ] as const)
      expect((await call(method, url, owner.idToken, payload, otherProjectId)).statusCode).toBe(404);
    expect((await call('GET', '/reports', owner.idToken, undefined, otherProjectId)).json().reports).toEqual([]);
  });

  it('the plan: 402 without cloudCostOptimizer', async () => {
    expect((await call('GET', '/reports', owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('POST', '/reports', owner.idToken, report(), starterProjectId)).statusCode).toBe(402);
    expect((await call('GET', `/reports/${id}`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('PUT', `/reports/${id}`, owner.idToken, report(), starterProjectId)).statusCode).toBe(402);
    expect((await call('DELETE', `/reports/${id}`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
    expect((await call('POST', `/reports/${id}/send`, owner.idToken, undefined, starterProjectId)).statusCode).toBe(402);
  });

  it('DELETE /reports/:id removes it', async () => {
    const res = await call('DELETE', `/reports/${id}`, owner.idToken);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await call('GET', `/reports/${id}`, owner.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', `/reports/${id}`, owner.idToken)).statusCode).toBe(404);
  });
});
