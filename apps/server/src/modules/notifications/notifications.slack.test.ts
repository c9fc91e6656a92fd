import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { integrationMessages } from '@gantry/contracts';
import { freePort, startSlackReceiver, type SlackReceiver } from '@gantry/test-support';
import { createTestApp, registerUser, createProject, addMember, grantPlan, bearer, until, type TestApp } from '../../../test/helpers.js';
import { expectEveryProjectRouteListed, expectProjectGuards, type GuardedRoute } from '../../../test/route-guards.js';

let t: TestApp;
let slack: SlackReceiver;
let owner: { idToken: string; profile: { id: string } };
let reader: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let starterProjectId: string;

beforeAll(async () => {
  slack = await startSlackReceiver();
  // the receiver listens on 127.0.0.1, which the default OUTBOUND_NETWORK (lan) refuses
  t = await createTestApp({ OUTBOUND_NETWORK: 'any' });
  owner = await registerUser(t, 'slack-owner@example.com', { firstName: 'Sly', lastName: 'Owner' });
  outsider = await registerUser(t, 'slack-outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Chatty');
  starterProjectId = await createProject(t, owner.idToken, 'Quiet');
  await grantPlan(t, owner.idToken, projectId, 'PRO');
  reader = await addMember(t, owner.idToken, projectId, 'slack-reader@example.com', 'read');
});
afterAll(async () => {
  await t?.close();
  await slack?.close();
});

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-notification${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });
const integrations = (pid: string) => `/projects/${pid}/integrations`;
const build = (number: number) => ({
  projectId,
  pipelineId: '5d1c2e44-0a1b-4c5d-8e9f-0a1b2c3d4e5f',
  pipelineName: 'web',
  branch: 'main',
  triggeredBy: null,
  number,
  status: 'SUCCEEDED',
});

describe('Slack integration', () => {
  it('answers 402 on a plan without Slack, for the list and for adding', async () => {
    const list = await call('GET', integrations(starterProjectId), owner.idToken);
    expect(list.statusCode).toBe(402);
    expect(list.json().code).toBe('PlanLimit');
    expect((await call('POST', integrations(starterProjectId), owner.idToken, { type: 'slack', webhookUrl: slack.webhookUrl })).statusCode).toBe(402);
  });

  it('refuses a URL that is not one, a reader (403) and another project (404)', async () => {
    const bad = await call('POST', integrations(projectId), owner.idToken, { type: 'slack', webhookUrl: 'hooks.slack.com/services/x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.webhookUrl).toEqual([integrationMessages.badUrl]);
    // an empty one is told as a missing URL under the field, not as the integration's failure
    for (const webhookUrl of ['', '   ']) {
      const empty = await call('POST', integrations(projectId), owner.idToken, { type: 'slack', webhookUrl });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields.webhookUrl).toEqual([integrationMessages.webhookRequired]);
    }
    expect((await call('POST', integrations(projectId), reader.idToken, { type: 'slack', webhookUrl: slack.webhookUrl })).statusCode).toBe(403);
    expect((await call('POST', integrations(projectId), outsider.idToken, { type: 'slack', webhookUrl: slack.webhookUrl })).statusCode).toBe(404);
    expect((await call('GET', integrations(projectId), outsider.idToken)).statusCode).toBe(404);
  });

  it('guards every project route of notifications: reader 403 on changes, another project 404, no session 401', async () => {
    const base = `/ms-notification/projects/${projectId}`;
    const routes: GuardedRoute[] = [
      { method: 'PUT', url: `${base}/notifications/${crypto.randomUUID()}/read` },
      { method: 'PUT', url: `${base}/notifications/read` },
      { method: 'GET', url: `${base}/integrations` },
      { method: 'POST', url: `${base}/integrations`, payload: { type: 'slack', webhookUrl: slack.webhookUrl }, change: true },
      { method: 'DELETE', url: `${base}/integrations/slack`, change: true },
      { method: 'GET', url: `${base}/users` },
      // a member (un)subscribes only themselves: 'view', the service refuses anyone else's id
      { method: 'POST', url: `${base}/users/${owner.profile.id}` },
      { method: 'DELETE', url: `${base}/users/${owner.profile.id}` },
    ];
    await expectEveryProjectRouteListed(t, ['notifications'], routes);
    await expectProjectGuards(t, routes, { reader: reader.idToken, outsider: outsider.idToken });
    expect((await call('GET', integrations(projectId), owner.idToken)).json().integrations).toEqual([]);
  });

  it("refuses a hook Slack does not know (404 no_service) or that answers nothing, with the spec's message, and keeps none", async () => {
    const closed = await freePort();
    for (const webhookUrl of [`${slack.webhookUrl}-removed`, `http://127.0.0.1:${closed}/services/T0/B0/x`]) {
      const refused = await call('POST', integrations(projectId), owner.idToken, { type: 'slack', webhookUrl });
      expect(refused.statusCode, webhookUrl).toBe(400);
      expect(refused.json().fields.webhookUrl).toEqual([integrationMessages.badUrl]);
    }
    expect((await call('GET', integrations(projectId), owner.idToken)).json().integrations).toEqual([]);
    expect(slack.messages).toEqual([]);
  });

  it('adds one per project, never answers the URL, and says hello in the channel (again later when Slack failed then)', async () => {
    slack.failNext(1);
    const before = slack.attempts.length;
    const added = await call('POST', integrations(projectId), owner.idToken, { type: 'slack', webhookUrl: slack.webhookUrl });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ type: 'slack', webhookHost: new URL(slack.webhookUrl).host });
    expect(added.body).not.toContain('/services/');
    const second = await call('POST', integrations(projectId), owner.idToken, { type: 'slack', webhookUrl: slack.webhookUrl });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toBe(integrationMessages.onlyOne);
    const list = await call('GET', integrations(projectId), reader.idToken);
    expect(list.json().integrations).toHaveLength(1);
    expect(list.body).not.toContain('/services/');
    await slack.waitFor((m) => m.text.startsWith('Gantry will post'));
    expect(slack.attempts.slice(before).map((a) => a.status)).toEqual([500, 200]);
  });

  it('posts a finished build with a link back to its page', async () => {
    await t.app.services.notifications.buildFinished(build(7));
    const m = await slack.waitFor((x) => x.text.includes('Build #7'));
    expect(m.text).toBe(`<http://gantry.test/pipelines/${build(7).pipelineId}/builds/7|Build #7 of web on main succeeded>\n_Chatty · Gantry_`);
  });

  it('posts a finished deployment linking to the environment', async () => {
    const stageId = '0d6c1e2f-3a4b-4c5d-8e9f-0a1b2c3d4e5f';
    await t.app.services.notifications.deploymentFinished({
      projectId,
      stageId,
      stageName: 'staging',
      kind: 'DEPLOY',
      succeeded: false,
      status: 'CREATE_FAILED',
      triggeredBy: owner.profile.id,
    });
    const m = await slack.waitFor((x) => x.text.includes('staging'));
    expect(m.text).toBe(`<http://gantry.test/environments/${stageId}/details|Deployment of staging failed (CREATE_FAILED)>\n_Chatty · Sly Owner_`);
  });

  it("waits out Slack's 429 as Retry-After says, then sends the same message once", async () => {
    slack.rateLimitNext(2, 1);
    const before = slack.attempts.length;
    await t.app.services.notifications.buildFinished(build(8));
    await slack.waitFor((x) => x.text.includes('Build #8'));
    expect(slack.attempts.slice(before).map((a) => a.status)).toEqual([429, 429, 200]);
    expect(slack.messages.filter((x) => x.text.includes('Build #8'))).toHaveLength(1);
  });

  it('retries after a failure of Slack (5xx)', async () => {
    slack.failNext(1);
    const before = slack.attempts.length;
    await t.app.services.notifications.buildFinished(build(9));
    await slack.waitFor((x) => x.text.includes('Build #9'));
    expect(slack.attempts.slice(before).map((a) => a.status)).toEqual([500, 200]);
  });

  it('removes the integration (writers only); nothing is posted afterwards', async () => {
    expect((await call('DELETE', `${integrations(projectId)}/slack`, reader.idToken)).statusCode).toBe(403);
    expect((await call('DELETE', `${integrations(projectId)}/slack`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', `${integrations(projectId)}/teams`, owner.idToken)).statusCode).toBe(400);
    expect((await call('DELETE', `${integrations(projectId)}/slack`, owner.idToken)).statusCode).toBe(200);
    expect((await call('DELETE', `${integrations(projectId)}/slack`, owner.idToken)).statusCode).toBe(404);
    expect((await call('GET', integrations(projectId), owner.idToken)).json().integrations).toEqual([]);
    const unfinishedJobs = async () =>
      (
        (await t.app.services.database.executeSql(`select count(*)::int as n from pgboss.job where name = 'notifications.slack' and state <> 'completed'`))
          .rows[0] as { n: number }
      ).n;
    // the earlier tests' jobs are marked completed just after their message arrives: wait for that first
    await until(unfinishedJobs, (n) => n === 0, 'earlier Slack jobs to complete');
    const count = slack.messages.length;
    await t.app.services.notifications.buildFinished(build(10));
    expect(await unfinishedJobs()).toBe(0);
    expect(slack.messages.length).toBe(count);
  });
});
