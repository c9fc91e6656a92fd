import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createTestApp, registerUser, createProject, bearer, type TestApp, acceptingCloudVerifier } from '../../../test/helpers.js';

// Through the whole app: the environments module answers the cloud-accounts module's "who uses this account?".
let t: TestApp;
let owner: { idToken: string };
let projectId: string;
let otherProjectId: string;
const USED = '111122223333';
const UNUSED = '444455556666';

const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) => t.app.inject({ method, url, headers: bearer(owner.idToken), payload });
const connectAws = (pid: string, awsAccountId: string) =>
  call('POST', `/ms-aws/projects/${pid}/aws-accounts`, {
    accountName: `acct-${awsAccountId}`,
    iamRole: `arn:aws:iam::${awsAccountId}:role/gantry`,
    externalId: 'ext-1',
  });
const stagePayload = (name: string, patch: object) => ({ name, description: name, infrastructureAsCodeTool: 'terraform', ...patch });

beforeAll(async () => {
  t = await createTestApp({}, { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier } } });
  owner = await registerUser(t, 'account-users@example.com');
  projectId = await createProject(t, owner.idToken, 'Accounts');
  otherProjectId = await createProject(t, owner.idToken, 'Elsewhere');
  for (const [pid, id] of [
    [projectId, USED],
    [projectId, UNUSED],
    [otherProjectId, USED],
  ] as const) {
    const res = await connectAws(pid, id);
    expect(res.statusCode, res.body).toBe(201);
  }
  const gcp = await call('POST', `/ms-aws/projects/${projectId}/gcp-accounts`, {
    gcpProjectId: 'shop-prod',
    projectName: 'Shop',
    targetServiceAccount: 'gantry@shop-prod.iam.gserviceaccount.com',
  });
  expect(gcp.statusCode, gcp.body).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

describe('a cloud account that environments use', () => {
  let awsStageId: string;
  let gcpStageId: string;

  it('cannot be deleted while an environment deploys into it', async () => {
    const aws = await call(
      'POST',
      `/ms-engine/projects/${projectId}/stages`,
      stagePayload('production', { cloudProvider: 'aws', awsAccountId: USED, awsRegion: 'eu-central-1' }),
    );
    expect(aws.statusCode, aws.body).toBe(201);
    awsStageId = aws.json().stageId;
    const gcp = await call(
      'POST',
      `/ms-engine/projects/${projectId}/stages`,
      stagePayload('analytics', { cloudProvider: 'google', gcpProjectId: 'shop-prod', gcpRegion: 'europe-west1', gcpZone: 'europe-west1-b' }),
    );
    expect(gcp.statusCode, gcp.body).toBe(201);
    gcpStageId = gcp.json().stageId;

    const busy = await call('DELETE', `/ms-aws/projects/${projectId}/aws-accounts/${USED}`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ message: `AWS account ${USED} is used by the environment production; change it first`, environments: ['production'] });
    const busyGcp = await call('DELETE', `/ms-aws/projects/${projectId}/gcp-accounts/shop-prod`);
    expect(busyGcp.statusCode).toBe(409);
    expect(busyGcp.json().environments).toEqual(['analytics']);
    expect(
      (await call('GET', `/ms-aws/projects/${projectId}/aws-accounts`))
        .json()
        .awsAccounts.map((a: { id: string }) => a.id)
        .sort(),
    ).toEqual([USED, UNUSED]);
  });

  it('is judged per account and per project', async () => {
    expect((await call('DELETE', `/ms-aws/projects/${projectId}/aws-accounts/${UNUSED}`)).json()).toEqual({ ok: true });
    // the same AWS account connected to another project, where no environment uses it
    expect((await call('DELETE', `/ms-aws/projects/${otherProjectId}/aws-accounts/${USED}`)).json()).toEqual({ ok: true });
  });

  it('can be deleted once the environment is gone', async () => {
    expect((await call('DELETE', `/ms-engine/projects/${projectId}/stages/${awsStageId}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/ms-aws/projects/${projectId}/aws-accounts/${USED}`)).json()).toEqual({ ok: true });
    expect((await call('GET', `/ms-aws/projects/${projectId}/aws-accounts`)).json()).toEqual({ awsAccounts: [] });
    expect((await call('DELETE', `/ms-engine/projects/${projectId}/stages/${gcpStageId}`)).statusCode).toBe(200);
    expect((await call('DELETE', `/ms-aws/projects/${projectId}/gcp-accounts/shop-prod`)).json()).toEqual({ ok: true });
  });
});
