import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { advisorSummaries } from '@gantry/contracts';
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

/** The advisor routes against the AWS stand-in (SDK v3 clients through AWS_ENDPOINT_URL_*), with a clock the test moves. */
const ACCOUNT = '123456789012';
const STAGE = '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
let clock = Date.parse('2026-11-20T12:00:00Z');
let aws: AwsStandin;
let t: TestApp;
let owner: { idToken: string };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let starterProjectId: string;

const get = (query: string, token: string, pid = projectId) =>
  t.app.inject({ method: 'GET', url: `/ms-cloud-cost-optimizer/projects/${pid}/advisor?${query}`, headers: bearer(token) });
const post = (payload: object, token: string, pid = projectId) =>
  t.app.inject({ method: 'POST', url: `/ms-cloud-cost-optimizer/projects/${pid}/advisor`, headers: bearer(token), payload });
const cloudWatchCalls = () => aws.calls.filter((c) => c.service === 'monitoring').length;

beforeAll(async () => {
  aws = await startAwsStandin({ now: () => clock, world: seedWasteWorld({ stageId: STAGE, now: clock }) });
  Object.assign(process.env, aws.env());
  t = await createTestApp({}, { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier }, advisor: { now: () => new Date(clock) } } });
  owner = await registerUser(t, 'adv-owner@example.com');
  outsider = await registerUser(t, 'adv-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Advisor');
  starterProjectId = await createProject(t, owner.idToken, 'Starter');
  reader = await addMember(t, owner.idToken, projectId, 'adv-reader@example.com', 'read');
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT);
  await connectAwsAccount(t, owner.idToken, starterProjectId, ACCOUNT);
});
afterAll(async () => {
  await t?.close();
  await aws?.close();
});

describe('waste advisor', () => {
  it('judges the account by the spec rules and caches the result with its age', async () => {
    const first = await get(`awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, reader.idToken);
    expect(first.statusCode, first.body).toBe(200);
    const r = first.json();
    expect(r).toMatchObject({ awsAccountId: ACCOUNT, awsRegion: 'eu-west-1', tagKey: null, ageSeconds: 0, fetchedAt: '2026-11-20T12:00:00.000Z' });
    expect(r.stats.ec2.lowUtilizationInstances.map((i: { instanceId: string }) => i.instanceId)).toEqual(['i-0a00000000000idle', 'i-0a00000000000edge']);
    expect(r.stats.ec2.lowUtilizationInstances[1]).toMatchObject({ name: 'edge', lowDays: 4, instanceType: 't3.micro' });
    expect(r.stats.elb.classicELBStats.idleLoadBalancers.map((l: { name: string }) => l.name)).toEqual(['legacy-web']);
    expect(r.stats.elb.nonClassicELBStats.idleLoadBalancers.map((l: { name: string; type: string }) => [l.name, l.type])).toEqual([
      ['api', 'application'],
      ['inspect', 'gateway'],
    ]);
    expect(r.stats.rds.idleRelationalDBResources.map((d: { dbInstanceIdentifier: string }) => d.dbInstanceIdentifier)).toEqual(['shop-db']);
    expect(advisorSummaries(r.stats)).toEqual({
      ec2: '2 of 4 EC2 instances have low average daily utilization',
      classicElb: '1 classic load balancers appear idle',
      nonClassicElb: '2 application, network and gateway load balancers appear idle',
      rds: '1 of 2 DB instances appear idle',
    });

    // a later read answers the cache (no CloudWatch call) with its age; Get statistics computes anew
    const calls = cloudWatchCalls();
    clock += 90_000;
    const cached = (await get(`awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, reader.idToken)).json();
    expect(cached).toMatchObject({ ageSeconds: 90, fetchedAt: '2026-11-20T12:00:00.000Z' });
    expect(cloudWatchCalls()).toBe(calls);
    const fresh = await post({ awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' }, owner.idToken);
    expect(fresh.json()).toMatchObject({ ageSeconds: 0, fetchedAt: '2026-11-20T12:01:30.000Z' });
    expect(cloudWatchCalls()).toBeGreaterThan(calls);
  });

  it("only the environment's tagged resources when reached from an environment, cached apart", async () => {
    const res = await post({ awsAccountId: ACCOUNT, awsRegion: 'eu-west-1', tagKey: 'gantry:environment', tagValue: STAGE }, owner.idToken);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json().stats;
    expect(s.ec2).toMatchObject({ totalInstances: 2, lowUtilizationInstances: [{ instanceId: 'i-0a00000000000idle' }] });
    expect(s.elb.classicELBStats.total).toBe(0);
    expect(s.elb.nonClassicELBStats).toMatchObject({ total: 1, idleLoadBalancers: [{ name: 'api' }] });
    expect(s.rds).toMatchObject({ totalRelationalDBResources: 1 });
    const untagged = (await get(`awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, owner.idToken)).json();
    expect(untagged.stats.ec2.totalInstances).toBe(4);
  });

  it('an empty region answers zeros, not an error', async () => {
    const r = (await post({ awsAccountId: ACCOUNT, awsRegion: 'ap-south-1' }, owner.idToken)).json();
    expect(r.stats.ec2).toEqual({ status: 'SUCCESS', error: null, lowUtilizationInstances: [], totalInstances: 0 });
    expect(r.stats.rds.totalRelationalDBResources).toBe(0);
  });

  it('validates the query, enforces roles, the project and the plan', async () => {
    const missing = await get(`awsAccountId=${ACCOUNT}`, owner.idToken);
    expect(missing.statusCode).toBe(400);
    expect((await post({ awsAccountId: '', awsRegion: 'eu-west-1' }, owner.idToken)).json().message).toContain('Please select an AWS account');
    expect((await post({ awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' }, reader.idToken)).statusCode).toBe(403);
    expect((await get(`awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, outsider.idToken)).statusCode).toBe(404);
    expect((await post({ awsAccountId: '999999999999', awsRegion: 'eu-west-1' }, owner.idToken)).statusCode).toBe(404);
    expect((await get(`awsAccountId=${ACCOUNT}&awsRegion=eu-west-1`, owner.idToken, starterProjectId)).statusCode).toBe(402);
    expect((await post({ awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' }, owner.idToken, starterProjectId)).statusCode).toBe(402);
  });
  it('guards every route: a reader may not refresh (403), another project sees nothing (404), no session is 401', async () => {
    const url = `/ms-cloud-cost-optimizer/projects/${projectId}/advisor`;
    const routes: GuardedRoute[] = [
      { method: 'GET', url: `${url}?awsAccountId=${ACCOUNT}&awsRegion=eu-west-1` },
      { method: 'POST', url, payload: { awsAccountId: ACCOUNT, awsRegion: 'eu-west-1' }, change: true },
    ];
    await expectEveryProjectRouteListed(t, ['waste advisor'], routes);
    await expectProjectGuards(t, routes, { reader: reader.idToken, outsider: outsider.idToken });
  });
});
