import { describe, it, expect, beforeAll, afterAll, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { cloudAccountMessages, SENSITIVE_PLACEHOLDER } from '@gantry/contracts';
import { registerUser, bearer, createProject, addMember } from '../../../test/helpers.js';
import { createCloudAccountsTestApp, GOOD } from './cloud-accounts.test-app.js';
import { awsAccounts, azureAccounts } from './cloud-accounts.tables.js';
import type { CloudAccountRef } from './cloud-accounts.service.js';

let t: Awaited<ReturnType<typeof createCloudAccountsTestApp>>;
let owner: { idToken: string };
let outsider: { idToken: string };
let projectId: string;
let otherProjectId: string;
const members: Record<'write' | 'read', { idToken: string }> = {} as never;
const inUse: { refs: CloudAccountRef[] } = { refs: [] };

beforeAll(async () => {
  t = await createCloudAccountsTestApp({
    usedBy: async (_projectId, ref) => (inUse.refs.some((r) => JSON.stringify(r) === JSON.stringify(ref)) ? ['Production'] : []),
  });
  owner = await registerUser(t, 'owner@example.com');
  outsider = await registerUser(t, 'outsider@example.com');
  projectId = await createProject(t, owner.idToken, 'Alpha');
  otherProjectId = await createProject(t, outsider.idToken, 'Theirs');
  for (const p of ['write', 'read'] as const) members[p] = await addMember(t, owner.idToken, projectId, `${p}@example.com`, p);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, idToken?: string, payload?: object) =>
  t.api.inject({ method, url: `/ms-aws${url}`, headers: idToken ? bearer(idToken) : {}, payload });

const ROLE = 'arn:aws:iam::111122223333:role/GantryDeployer';
const awsBody = { accountName: 'Production', iamRole: ROLE, externalId: GOOD.awsExternalId };
const gcpBody = { gcpProjectId: 'my-project-123', projectName: 'My project', targetServiceAccount: 'deployer@my-project-123.iam.gserviceaccount.com' };
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const SUB = '00000000-1111-2222-3333-444444444444';
const azureBody = {
  tenantId: TENANT,
  applicationId: '1950a258-227b-4e31-a9cf-717495945fc2',
  subscriptionId: SUB,
  subscriptionName: 'Pay-As-You-Go',
  clientSecret: GOOD.azureSecret,
};

describe('AWS accounts', () => {
  const base = () => `/projects/${projectId}/aws-accounts`;

  it('connects after STS accepted the role (write may), stores the external id sealed and never answers it', async () => {
    const res = await call('POST', base(), members.write.idToken, awsBody);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: '111122223333', accountName: 'Production', iamRole: ROLE, externalId: SENSITIVE_PLACEHOLDER });
    expect(t.fake.calls.at(-1)).toEqual({
      provider: 'aws',
      input: { roleArn: ROLE, externalId: GOOD.awsExternalId, sessionName: 'gantry-verify', durationSeconds: undefined },
    });
    const list = await call('GET', base(), members.read.idToken);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual({ awsAccounts: [{ id: '111122223333', accountName: 'Production', iamRole: ROLE, externalId: SENSITIVE_PLACEHOLDER }] });
    expect(list.body).not.toContain(GOOD.awsExternalId);
    const [row] = await t.database.db.select().from(awsAccounts).where(eq(awsAccounts.awsAccountId, '111122223333'));
    expect(row!.externalIdSealed).not.toContain(GOOD.awsExternalId);
    expect(t.app.services.secrets.open(row!.externalIdSealed)).toBe(GOOD.awsExternalId);
  });

  it('answers 409 for the same AWS account in the same project, and connects it to another project', async () => {
    const dup = await call('POST', base(), owner.idToken, { ...awsBody, iamRole: 'arn:aws:iam::111122223333:role/Other' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'Conflict', message: 'AWS account 111122223333 is already connected to this project' });
    expect((await call('POST', `/projects/${otherProjectId}/aws-accounts`, outsider.idToken, awsBody)).statusCode).toBe(201);
  });

  it('answers 400 with the spec message when STS refuses, and saves nothing', async () => {
    const res = await call('POST', base(), owner.idToken, { ...awsBody, iamRole: 'arn:aws:iam::444455556666:role/X', externalId: 'wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      message: cloudAccountMessages.awsConnectionFailed,
      code: 'CloudConnectionFailed',
      reason: expect.stringContaining('AccessDenied'),
    });
    expect(res.json().message).toBe(
      'We cannot establish a connection with the AWS provider. Please check if your IAM role ARN and external ID are correct and try again.',
    );
    expect((await call('GET', base(), owner.idToken)).json().awsAccounts).toHaveLength(1);
  });

  it('says the Gantry host has no AWS identity when the SDK finds no credentials, not that the ARN or external ID is wrong', async () => {
    t.fake.host.awsIdentity = false;
    try {
      const body = { ...awsBody, iamRole: 'arn:aws:iam::777788889999:role/GantryDeployer' };
      const res = await call('POST', base(), owner.idToken, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        message: cloudAccountMessages.awsHostIdentityMissing,
        code: 'CloudHostIdentityMissing',
        reason: 'CredentialsProviderError: Could not load credentials from any providers',
      });
      expect(res.json().message).toMatch(/no AWS identity of its own.*AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or an EC2 instance profile/);
      const update = await call('PUT', `${base()}/111122223333`, owner.idToken, { accountName: 'Production', iamRole: ROLE });
      expect(update.json()).toMatchObject({ code: 'CloudHostIdentityMissing' });
      expect((await call('GET', base(), owner.idToken)).json().awsAccounts).toHaveLength(1);
    } finally {
      t.fake.host.awsIdentity = true;
    }
  });

  it.each([
    ['accountName', 'x'.repeat(31), 'Account name must be at most 30 characters'],
    ['accountName', '', 'Account name is required'],
    ['iamRole', 'arn:aws:iam::1234:role/Short', cloudAccountMessages.iamRoleFormat],
    ['iamRole', 'arn:aws:iam::123456789012:user/Someone', cloudAccountMessages.iamRoleFormat],
    ['externalId', '', 'External ID is required'],
  ])('validates %s = %j → %s', async (field, value, message) => {
    const res = await call('POST', base(), owner.idToken, { ...awsBody, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toContain(message);
  });

  it('updates; an external id left at its placeholder (or out) keeps the stored one', async () => {
    const res = await call('PUT', `${base()}/111122223333`, owner.idToken, {
      accountName: 'Prod',
      iamRole: 'arn:aws:iam::111122223333:role/Renamed',
      externalId: SENSITIVE_PLACEHOLDER,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: '111122223333',
      accountName: 'Prod',
      iamRole: 'arn:aws:iam::111122223333:role/Renamed',
      externalId: SENSITIVE_PLACEHOLDER,
    });
    expect(t.fake.calls.at(-1)!.input).toMatchObject({ roleArn: 'arn:aws:iam::111122223333:role/Renamed', externalId: GOOD.awsExternalId });
    expect(
      (await call('PUT', `${base()}/111122223333`, owner.idToken, { accountName: 'Prod', iamRole: 'arn:aws:iam::111122223333:role/Renamed' })).statusCode,
    ).toBe(200);
    const [row] = await t.database.db.select().from(awsAccounts).where(eq(awsAccounts.projectId, projectId));
    expect(t.app.services.secrets.open(row!.externalIdSealed)).toBe(GOOD.awsExternalId);
  });

  it('updates the external id when a new one is sent (verified first)', async () => {
    const refused = await call('PUT', `${base()}/111122223333`, owner.idToken, { accountName: 'Prod', iamRole: ROLE, externalId: 'not-accepted' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(cloudAccountMessages.awsConnectionFailed);
    t.fake.accepts.awsExternalIds.add('ext-rotated');
    const res = await call('PUT', `${base()}/111122223333`, owner.idToken, { accountName: 'Prod', iamRole: ROLE, externalId: 'ext-rotated' });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('ext-rotated');
    const [row] = await t.database.db.select().from(awsAccounts).where(eq(awsAccounts.projectId, projectId));
    expect(t.app.services.secrets.open(row!.externalIdSealed)).toBe('ext-rotated');
  });

  it('keeps the role in the same AWS account on update', async () => {
    const res = await call('PUT', `${base()}/111122223333`, owner.idToken, { accountName: 'Prod', iamRole: 'arn:aws:iam::999988887777:role/X' });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.iamRole).toEqual(['The IAM role ARN must stay in AWS account 111122223333']);
  });

  it('refuses read members (403), other projects (404), no session (401); 404 for unknown accounts', async () => {
    expect((await call('POST', base(), members.read.idToken, awsBody)).statusCode).toBe(403);
    expect((await call('PUT', `${base()}/111122223333`, members.read.idToken, { accountName: 'x', iamRole: ROLE })).statusCode).toBe(403);
    expect((await call('DELETE', `${base()}/111122223333`, members.read.idToken)).statusCode).toBe(403);
    expect((await call('GET', base(), outsider.idToken)).statusCode).toBe(404);
    expect((await call('POST', base(), outsider.idToken, awsBody)).statusCode).toBe(404);
    expect((await call('PUT', `${base()}/111122223333`, outsider.idToken, { accountName: 'x', iamRole: ROLE })).statusCode).toBe(404);
    expect((await call('DELETE', `${base()}/111122223333`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('GET', base())).statusCode).toBe(401);
    expect((await call('PUT', `${base()}/000000000000`, owner.idToken, { accountName: 'x', iamRole: 'arn:aws:iam::000000000000:role/X' })).statusCode).toBe(
      404,
    );
    // The other project's copy of the same AWS account is not reachable from this project.
    expect((await call('GET', `/projects/${otherProjectId}/aws-accounts`, owner.idToken)).statusCode).toBe(404);
  });

  it('hands deployments assumed-role credentials (credentialsFor)', async () => {
    const env = await t.service.credentialsFor(projectId, 'aws', '111122223333');
    expect(env).toEqual({
      AWS_ACCESS_KEY_ID: 'ASIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
      AWS_SESSION_TOKEN: `session-for-gantry-${projectId.slice(0, 8)}`,
    });
    expect(t.fake.calls.at(-1)!.input).toMatchObject({ roleArn: ROLE, externalId: 'ext-rotated', durationSeconds: 3600 });
    await expect(t.service.credentialsFor(otherProjectId, 'aws', '999988887777')).rejects.toMatchObject({ status: 404 });
  });

  it("reuses a deployment's session for the next ones in its first quarter hour, and assumes the role again for an edited account", async () => {
    const assumed = () => t.fake.calls.filter((c) => c.provider === 'aws').length;
    const before = assumed();
    const first = await t.service.credentialsFor(projectId, 'aws', '111122223333');
    expect(await t.service.credentialsFor(projectId, 'aws', '111122223333')).toEqual(first);
    expect(assumed()).toBe(before); // the session of the test above, 45 minutes and more left
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 16 * 60_000); // under 45 minutes left: a fresh one
      await t.service.credentialsFor(projectId, 'aws', '111122223333');
      expect(assumed()).toBe(before + 1);
      await t.service.credentialsFor(projectId, 'aws', '111122223333');
      expect(assumed()).toBe(before + 1);
    } finally {
      vi.useRealTimers();
    }
    const edited = await call('PUT', `${base()}/111122223333`, owner.idToken, { accountName: 'Prod', iamRole: ROLE, externalId: 'ext-rotated' });
    expect(edited.statusCode).toBe(200);
    const verified = assumed();
    await t.service.credentialsFor(projectId, 'aws', '111122223333');
    expect(assumed()).toBe(verified + 1);
  });

  it('refuses removal while an environment uses the account, then removes it', async () => {
    inUse.refs = [{ provider: 'aws', awsAccountId: '111122223333' }];
    const busy = await call('DELETE', `${base()}/111122223333`, owner.idToken);
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({
      message: 'AWS account 111122223333 is used by the environment Production; change it first',
      environments: ['Production'],
    });
    inUse.refs = [];
    expect((await call('DELETE', `${base()}/111122223333`, members.write.idToken)).json()).toEqual({ ok: true });
    expect((await call('GET', base(), owner.idToken)).json()).toEqual({ awsAccounts: [] });
    expect((await call('DELETE', `${base()}/111122223333`, owner.idToken)).statusCode).toBe(404);
    expect((await call('GET', `/projects/${otherProjectId}/aws-accounts`, outsider.idToken)).json().awsAccounts).toHaveLength(1);
  });
});

describe('Google Cloud Platform accounts', () => {
  const base = () => `/projects/${projectId}/gcp-accounts`;

  it('connects after the service account could be impersonated, lists it, 409 on a duplicate', async () => {
    const res = await call('POST', base(), members.write.idToken, gcpBody);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual(gcpBody);
    expect(t.fake.calls.at(-1)).toEqual({ provider: 'gcp', input: { targetServiceAccount: gcpBody.targetServiceAccount } });
    expect((await call('GET', base(), members.read.idToken)).json()).toEqual({ gcpAccounts: [gcpBody] });
    const dup = await call('POST', base(), owner.idToken, gcpBody);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Google Cloud Platform project my-project-123 is already connected to this project');
  });

  it('answers 400 with the spec message when impersonation is refused', async () => {
    const res = await call('POST', base(), owner.idToken, { ...gcpBody, gcpProjectId: 'other-project', targetServiceAccount: 'someone@example.com' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'We cannot establish a connection with the Google Cloud Platform provider. Please check if your input is correct and try again.',
    );
  });

  it.each([
    ['gcpProjectId', 'p'.repeat(31), 'Project ID must be at most 30 characters'],
    ['gcpProjectId', '', 'Project ID is required'],
    ['projectName', '', 'Project name is required'],
    ['targetServiceAccount', '', 'Service account is required'],
  ])('validates %s = %j → %s', async (field, value, message) => {
    const res = await call('POST', base(), owner.idToken, { ...gcpBody, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toContain(message);
  });

  it('updates name and service account (verified), never the project id', async () => {
    const res = await call('PUT', `${base()}/my-project-123`, owner.idToken, {
      gcpProjectId: 'ignored',
      projectName: 'Renamed',
      targetServiceAccount: 'ci@my-project-123.iam.gserviceaccount.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ gcpProjectId: 'my-project-123', projectName: 'Renamed', targetServiceAccount: 'ci@my-project-123.iam.gserviceaccount.com' });
    const bad = await call('PUT', `${base()}/my-project-123`, owner.idToken, { projectName: 'Renamed', targetServiceAccount: 'nobody@example.com' });
    expect(bad.statusCode).toBe(400);
    expect((await call('PUT', `${base()}/my-project-123`, owner.idToken, { projectName: '', targetServiceAccount: 'x' })).json().fields.projectName).toContain(
      'Project name is required',
    );
  });

  it("hands deployments the impersonation settings (credentialsFor, also by the environment's provider name)", async () => {
    const expected = { GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: 'ci@my-project-123.iam.gserviceaccount.com', GOOGLE_PROJECT: 'my-project-123' };
    expect(await t.service.credentialsFor(projectId, 'gcp', 'my-project-123')).toEqual(expected);
    expect(await t.service.credentialsFor(projectId, 'google', 'my-project-123')).toEqual(expected);
  });

  it('refuses read (403) and other projects (404); removes', async () => {
    expect((await call('POST', base(), members.read.idToken, gcpBody)).statusCode).toBe(403);
    expect((await call('DELETE', `${base()}/my-project-123`, members.read.idToken)).statusCode).toBe(403);
    expect((await call('GET', base(), outsider.idToken)).statusCode).toBe(404);
    expect((await call('PUT', `${base()}/my-project-123`, outsider.idToken, { projectName: 'x', targetServiceAccount: 'x' })).statusCode).toBe(404);
    expect((await call('DELETE', `${base()}/my-project-123`, outsider.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', `${base()}/my-project-123`, owner.idToken)).json()).toEqual({ ok: true });
    expect((await call('GET', base(), owner.idToken)).json()).toEqual({ gcpAccounts: [] });
  });
});

describe('Microsoft Azure accounts', () => {
  const base = () => `/projects/${projectId}/azure-accounts`;
  const one = () => `${base()}/${TENANT}/${SUB}`;
  const listed = {
    tenantId: TENANT,
    subscriptionId: SUB,
    applicationId: azureBody.applicationId,
    subscriptionName: 'Pay-As-You-Go',
    clientSecret: SENSITIVE_PLACEHOLDER,
  };

  it('connects after Entra ID issued a token, seals the secret and never answers it', async () => {
    const res = await call('POST', base(), members.write.idToken, azureBody);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual(listed);
    expect(t.fake.calls.at(-1)).toEqual({
      provider: 'azure',
      input: { tenantId: TENANT, applicationId: azureBody.applicationId, clientSecret: GOOD.azureSecret },
    });
    const list = await call('GET', base(), members.read.idToken);
    expect(list.json()).toEqual({ azureAccounts: [listed] });
    expect(list.body).not.toContain(GOOD.azureSecret);
    const [row] = await t.database.db.select().from(azureAccounts).where(eq(azureAccounts.projectId, projectId));
    expect(row!.clientSecretSealed).not.toContain(GOOD.azureSecret);
    expect(t.app.services.secrets.open(row!.clientSecretSealed)).toBe(GOOD.azureSecret);
    const dup = await call('POST', base(), owner.idToken, azureBody);
    expect(dup.statusCode).toBe(409);
  });

  it('answers 400 with the spec message when Entra ID refuses', async () => {
    const res = await call('POST', base(), owner.idToken, { ...azureBody, subscriptionId: 'another', clientSecret: 'wrong' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('We cannot establish a connection with the Microsoft Azure provider. Please check if your input is correct and try again.');
  });

  it.each([
    ['tenantId', 't'.repeat(37), 'Tenant ID must be at most 36 characters'],
    ['applicationId', 'a'.repeat(37), 'Application ID must be at most 36 characters'],
    ['subscriptionId', 's'.repeat(65), 'Subscription ID must be at most 64 characters'],
    ['subscriptionName', 'n'.repeat(65), 'Subscription name must be at most 64 characters'],
    ['clientSecret', '', 'Client secret is required'],
  ])('validates %s = %j → %s', async (field, value, message) => {
    const res = await call('POST', base(), owner.idToken, { ...azureBody, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toContain(message);
  });

  it('updates by tenant and subscription (not editable); a secret at its placeholder keeps the stored one', async () => {
    const res = await call('PUT', one(), owner.idToken, {
      tenantId: 'ignored',
      subscriptionId: 'ignored',
      applicationId: azureBody.applicationId,
      subscriptionName: 'Renamed',
      clientSecret: SENSITIVE_PLACEHOLDER,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ...listed, subscriptionName: 'Renamed' });
    expect(t.fake.calls.at(-1)!.input).toEqual({ tenantId: TENANT, applicationId: azureBody.applicationId, clientSecret: GOOD.azureSecret });
    const [row] = await t.database.db.select().from(azureAccounts).where(eq(azureAccounts.projectId, projectId));
    expect(t.app.services.secrets.open(row!.clientSecretSealed)).toBe(GOOD.azureSecret);

    t.fake.accepts.azureSecrets.add('rotated~secret');
    expect(
      (await call('PUT', one(), owner.idToken, { applicationId: azureBody.applicationId, subscriptionName: 'Renamed', clientSecret: 'rotated~secret' }))
        .statusCode,
    ).toBe(200);
    const [after] = await t.database.db.select().from(azureAccounts).where(eq(azureAccounts.projectId, projectId));
    expect(t.app.services.secrets.open(after!.clientSecretSealed)).toBe('rotated~secret');
    expect(
      (await call('PUT', one(), owner.idToken, { applicationId: azureBody.applicationId, subscriptionName: 'Renamed', clientSecret: 'wrong' })).statusCode,
    ).toBe(400);
  });

  it('hands deployments the ARM_* variables (credentialsFor)', async () => {
    expect(await t.service.credentialsFor(projectId, 'azurerm', { tenantId: TENANT, subscriptionId: SUB })).toEqual({
      ARM_CLIENT_ID: azureBody.applicationId,
      ARM_CLIENT_SECRET: 'rotated~secret',
      ARM_TENANT_ID: TENANT,
      ARM_SUBSCRIPTION_ID: SUB,
    });
    await expect(t.service.credentialsFor(projectId, 'azure', { tenantId: TENANT, subscriptionId: 'nope' })).rejects.toMatchObject({ status: 404 });
  });

  it('refuses read (403) and other projects (404); removes by tenant and subscription', async () => {
    expect((await call('POST', base(), members.read.idToken, azureBody)).statusCode).toBe(403);
    expect((await call('PUT', one(), members.read.idToken, { applicationId: 'a', subscriptionName: 'b' })).statusCode).toBe(403);
    expect((await call('DELETE', one(), members.read.idToken)).statusCode).toBe(403);
    expect((await call('GET', base(), outsider.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', one(), outsider.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', `${base()}/${TENANT}/other`, owner.idToken)).statusCode).toBe(404);
    expect((await call('DELETE', one(), owner.idToken)).json()).toEqual({ ok: true });
    expect((await call('GET', base(), owner.idToken)).json()).toEqual({ azureAccounts: [] });
  });
});
