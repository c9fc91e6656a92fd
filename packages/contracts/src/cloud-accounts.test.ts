import { describe, it, expect } from 'vitest';
import type { z } from 'zod';
import {
  AwsAccountBody,
  UpdateAwsAccountBody,
  GcpAccountBody,
  UpdateGcpAccountBody,
  AzureAccountBody,
  UpdateAzureAccountBody,
  awsAccountIdFromArn,
  cloudAccountMessages,
  keepsSecret,
  toUpdateAwsBody,
  toUpdateAzureBody,
  toUpdateGcpBody,
  AwsAccount,
} from './cloud-accounts.js';
import { SENSITIVE_PLACEHOLDER } from './common.js';

const fieldError = (schema: z.ZodTypeAny, value: unknown, field: string) => {
  const r = schema.safeParse(value);
  return r.success ? null : (r.error.issues.find((i) => i.path.join('.') === field)?.message ?? null);
};

const ROLE = 'arn:aws:iam::123456789012:role/GantryDeployer';
const aws = { accountName: 'Production', iamRole: ROLE, externalId: 'ext-123' };
const gcp = { gcpProjectId: 'my-project-123', projectName: 'My project', targetServiceAccount: 'deployer@my-project-123.iam.gserviceaccount.com' };
const azure = {
  tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  applicationId: '1950a258-227b-4e31-a9cf-717495945fc2',
  subscriptionId: '00000000-1111-2222-3333-444444444444',
  subscriptionName: 'Pay-As-You-Go',
  clientSecret: 'abc~secret',
};

describe('AWS account rules (spec §5)', () => {
  it.each([
    ['accountName', '', 'Account name is required'],
    ['accountName', 'x'.repeat(31), 'Account name must be at most 30 characters'],
    ['accountName', 'x'.repeat(30), null],
    ['iamRole', '', 'IAM role ARN is required'],
    ['iamRole', 'arn:aws:iam::12345678901:role/Short', cloudAccountMessages.iamRoleFormat],
    ['iamRole', 'arn:aws:iam::123456789012:user/Someone', cloudAccountMessages.iamRoleFormat],
    ['iamRole', 'arn:aws:iam::123456789012:role/', cloudAccountMessages.iamRoleFormat],
    ['iamRole', 'arn:aws:s3:::bucket', cloudAccountMessages.iamRoleFormat],
    ['iamRole', 'arn:aws:iam::123456789012:role/ci/deployer', null],
    ['iamRole', ROLE, null],
    ['externalId', '', 'External ID is required'],
    ['externalId', '   ', 'External ID is required'],
  ])('%s = %j → %s', (field, value, expected) => expect(fieldError(AwsAccountBody, { ...aws, [field]: value }, field)).toBe(expected));

  it('takes the account id from the fifth part of the role ARN', () => {
    expect(awsAccountIdFromArn(ROLE)).toBe('123456789012');
    expect(awsAccountIdFromArn('nonsense')).toBe('');
  });

  it('on update, the external id may be left out or at its placeholder', () => {
    expect(UpdateAwsAccountBody.safeParse({ accountName: 'A', iamRole: ROLE }).success).toBe(true);
    expect(toUpdateAwsBody({ ...aws, externalId: SENSITIVE_PLACEHOLDER })).toEqual({ accountName: 'Production', iamRole: ROLE });
    expect(toUpdateAwsBody(aws)).toEqual(aws);
  });

  it('a read shows the external id only as the placeholder', () => {
    expect(AwsAccount.safeParse({ id: '123456789012', accountName: 'A', iamRole: ROLE, externalId: 'ext-123' }).success).toBe(false);
    expect(AwsAccount.safeParse({ id: '123456789012', accountName: 'A', iamRole: ROLE, externalId: SENSITIVE_PLACEHOLDER }).success).toBe(true);
  });
});

describe('GCP account rules (spec §5)', () => {
  it.each([
    ['gcpProjectId', '', 'Project ID is required'],
    ['gcpProjectId', 'p'.repeat(31), 'Project ID must be at most 30 characters'],
    ['projectName', '', 'Project name is required'],
    ['targetServiceAccount', '', 'Service account is required'],
    ['targetServiceAccount', gcp.targetServiceAccount, null],
  ])('%s = %j → %s', (field, value, expected) => expect(fieldError(GcpAccountBody, { ...gcp, [field]: value }, field)).toBe(expected));

  it('the project id is not part of an update', () => {
    expect(toUpdateGcpBody(gcp)).toEqual({ projectName: 'My project', targetServiceAccount: gcp.targetServiceAccount });
    expect(UpdateGcpAccountBody.parse({ ...gcp })).not.toHaveProperty('gcpProjectId');
  });
});

describe('Azure account rules (spec §5)', () => {
  it.each([
    ['tenantId', '', 'Tenant ID is required'],
    ['tenantId', 't'.repeat(37), 'Tenant ID must be at most 36 characters'],
    ['tenantId', 't'.repeat(36), null],
    ['applicationId', 'a'.repeat(37), 'Application ID must be at most 36 characters'],
    ['applicationId', '', 'Application ID is required'],
    ['subscriptionId', 's'.repeat(65), 'Subscription ID must be at most 64 characters'],
    ['subscriptionId', 's'.repeat(64), null],
    ['subscriptionName', 'n'.repeat(65), 'Subscription name must be at most 64 characters'],
    ['subscriptionName', '', 'Subscription name is required'],
    ['clientSecret', '', 'Client secret is required'],
  ])('%s = %j → %s', (field, value, expected) => expect(fieldError(AzureAccountBody, { ...azure, [field]: value }, field)).toBe(expected));

  it('on update tenant and subscription are not sent, and a secret at its placeholder is left out', () => {
    expect(toUpdateAzureBody({ ...azure, clientSecret: SENSITIVE_PLACEHOLDER })).toEqual({
      applicationId: azure.applicationId,
      subscriptionName: 'Pay-As-You-Go',
    });
    expect(toUpdateAzureBody(azure)).toEqual({ applicationId: azure.applicationId, subscriptionName: 'Pay-As-You-Go', clientSecret: 'abc~secret' });
    expect(UpdateAzureAccountBody.parse({ ...azure })).not.toHaveProperty('tenantId');
  });
});

describe('messages (spec §8)', () => {
  it('names each provider', () => {
    expect(cloudAccountMessages.connectionFailed('aws')).toBe(
      'We cannot establish a connection with the AWS provider. Please check if your IAM role ARN and external ID are correct and try again.',
    );
    expect(cloudAccountMessages.connectionFailed('gcp')).toBe(
      'We cannot establish a connection with the Google Cloud Platform provider. Please check if your input is correct and try again.',
    );
    expect(cloudAccountMessages.connectionFailed('azure')).toBe(
      'We cannot establish a connection with the Microsoft Azure provider. Please check if your input is correct and try again.',
    );
    expect(cloudAccountMessages.connected('aws')).toBe('You have successfully connected your AWS account.');
    expect(cloudAccountMessages.connected('azure')).toBe('You have successfully connected your Microsoft Azure account.');
    expect(cloudAccountMessages.dialogTitle('gcp')).toBe('Connect or Update Google Cloud Platform Account');
  });

  it.each([
    [undefined, true],
    ['', true],
    [SENSITIVE_PLACEHOLDER, true],
    ['new', false],
  ])('keepsSecret(%j) = %s', (v, expected) => expect(keepsSecret(v)).toBe(expected));
});
