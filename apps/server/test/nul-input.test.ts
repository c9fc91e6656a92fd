import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, insertGitAccount, pipelineRow, PASSWORD, type TestApp } from './helpers.js';
import { pipelines } from '../src/modules/pipelines/pipelines.tables.js';

/**
 * Security finding: a NUL character in any request string reached PostgreSQL ("invalid byte
 * sequence") and answered 500. Every request string is now refused at the edge by the shared
 * contracts rule (the log side is covered in src/platform/errors.test.ts).
 */
const NUL = 'a\u0000b';
const NUL_MESSAGE = /must not contain NUL characters/i;

let t: TestApp;
let token: string;
let projectId: string;
let pipelineId: string;

beforeAll(async () => {
  t = await createTestApp();
  token = (await registerUser(t, 'nul-owner@example.com')).idToken;
  projectId = await createProject(t, token, 'Nul');
  const db = t.app.services.database.db;
  const account = await insertGitAccount(t, projectId);
  const [pipeline] = await db
    .insert(pipelines)
    .values(pipelineRow(projectId, account.id, { name: 'nul-pipe' }))
    .returning();
  pipelineId = pipeline!.id;
});
afterAll(async () => t?.close());

type Call = { name: string; method: 'GET' | 'POST' | 'PUT'; url: () => string; payload?: () => object; auth?: boolean };

const calls: Call[] = [
  {
    name: 'sign-up',
    method: 'POST',
    url: () => '/ms-usermanagement/auth/sign-up',
    payload: () => ({ username: 'nul-new@example.com', password: PASSWORD, firstName: NUL, lastName: 'User' }),
    auth: false,
  },
  {
    name: 'login',
    method: 'POST',
    url: () => '/ms-usermanagement/auth/login',
    payload: () => ({ username: `nul${NUL}@example.com`, password: PASSWORD }),
    auth: false,
  },
  {
    name: 'activate',
    method: 'POST',
    url: () => '/ms-usermanagement/auth/activate',
    payload: () => ({ username: 'nul-owner@example.com', code: NUL }),
    auth: false,
  },
  { name: 'refresh', method: 'POST', url: () => '/ms-usermanagement/auth/refresh', payload: () => ({ refreshToken: NUL }), auth: false },
  { name: 'update profile', method: 'PUT', url: () => '/ms-usermanagement/users/me', payload: () => ({ firstName: NUL, lastName: 'User' }) },
  { name: 'create project', method: 'POST', url: () => '/ms-project/projects', payload: () => ({ name: NUL, description: 'd', paymentPlanId: 'STARTER' }) },
  {
    name: 'update project',
    method: 'PUT',
    url: () => `/ms-project/projects/${projectId}`,
    payload: () => ({ name: 'Nul', description: NUL, paymentPlanId: 'STARTER' }),
  },
  {
    name: 'create pipeline',
    method: 'POST',
    url: () => `/ms-ap/projects/${projectId}/pipelines`,
    payload: () => ({ name: `pipe${NUL}`, gitAccountId: '00000000-0000-4000-8000-000000000000', repositoryUrl: 'https://example.com/acme/app' }),
  },
  { name: 'create git account', method: 'POST', url: () => `/ms-ap/projects/${projectId}/git-accounts`, payload: () => ({ code: NUL, type: 'github' }) },
  { name: 'search builds', method: 'GET', url: () => `/ms-ap/projects/${projectId}/pipelines/${pipelineId}/builds?search=a%00b` },
  { name: 'build step logs', method: 'GET', url: () => `/ms-ap/projects/${projectId}/pipelines/${pipelineId}/builds/1/steps/a%00b/logs` },
  { name: 'create stage', method: 'POST', url: () => `/ms-engine/projects/${projectId}/stages`, payload: () => ({ name: 'Dev', description: NUL }) },
  {
    name: 'create schedule',
    method: 'POST',
    url: () => `/ms-cloud-cost-optimizer/projects/${projectId}/schedules`,
    payload: () => ({
      name: NUL,
      startExpression: '0 8 * * 1-5',
      stopExpression: '0 18 * * 1-5',
      awsAccountId: '123456789012',
      awsRegion: 'eu-west-1',
      resourcesTagValue: 'x',
    }),
  },
  {
    name: 'create AWS account',
    method: 'POST',
    url: () => `/ms-aws/projects/${projectId}/aws-accounts`,
    payload: () => ({ accountName: NUL, iamRole: 'arn:aws:iam::123456789012:role/gantry', externalId: 'x' }),
  },
  { name: 'redeem promo code', method: 'POST', url: () => `/ms-project/projects/${projectId}/promo-code`, payload: () => ({ redeemCode: NUL }) },
];

describe('a NUL character in a request string', () => {
  it.each(calls)('$name answers 400 with a field error', async ({ method, url, payload, auth }) => {
    const res = await t.app.inject({ method, url: url(), headers: auth === false ? {} : bearer(token), payload: payload?.() });
    expect(res.statusCode, res.body).toBe(400);
    const fields = Object.values(res.json().fields ?? {}).flat() as string[];
    expect(
      fields.some((m) => NUL_MESSAGE.test(m)),
      res.body,
    ).toBe(true);
  });
});
