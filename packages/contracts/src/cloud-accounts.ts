import { z } from 'zod';
import { InputText, RequiredText, SENSITIVE_PLACEHOLDER } from './common.js';
import { ProjectIdParams } from './projects.js';

/**
 * Cloud accounts of a project (spec account-and-platform §2.9, §3, §5, §8): AWS accounts reached by
 * assuming an IAM role with an external id, GCP projects reached by impersonating a service account,
 * Azure subscriptions reached with an app registration's client secret. Served under /ms-aws.
 */
export const CLOUD_ACCOUNT_PROVIDERS = ['aws', 'gcp', 'azure'] as const;
export type CloudAccountProvider = (typeof CLOUD_ACCOUNT_PROVIDERS)[number];

/** The account kind serving an environment's cloud provider (components' `CloudProvider`: aws, azurerm, google). */
export const cloudAccountProviderOf = (cloudProvider: string): CloudAccountProvider | undefined =>
  (({ aws: 'aws', azurerm: 'azure', azure: 'azure', google: 'gcp', gcp: 'gcp' }) as const)[cloudProvider as 'aws'];

/** The provider names the screens and messages use ("Connect or Update {provider} Account"). */
export const CLOUD_ACCOUNT_PROVIDER_NAMES: Record<CloudAccountProvider, string> = {
  aws: 'AWS',
  gcp: 'Google Cloud Platform',
  azure: 'Microsoft Azure',
};

export const cloudAccountMessages = {
  empty: 'No cloud accounts available. Add a new account?',
  awsConnectionFailed: 'We cannot establish a connection with the AWS provider. Please check if your IAM role ARN and external ID are correct and try again.',
  /** The Gantry host itself has no AWS credentials to call STS with: nothing the user typed is at fault. */
  awsHostIdentityMissing:
    'This Gantry server has no AWS identity of its own to assume your IAM role with. Its administrator gives the Gantry host AWS credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or an EC2 instance profile / ECS task role) and restarts Gantry; then connect the account again.',
  /** Spec §8 for Google and Azure; AWS has its own text. */
  connectionFailed: (provider: CloudAccountProvider) =>
    provider === 'aws'
      ? cloudAccountMessages.awsConnectionFailed
      : `We cannot establish a connection with the ${CLOUD_ACCOUNT_PROVIDER_NAMES[provider]} provider. Please check if your input is correct and try again.`,
  connected: (provider: CloudAccountProvider) => `You have successfully connected your ${CLOUD_ACCOUNT_PROVIDER_NAMES[provider]} account.`,
  dialogTitle: (provider: CloudAccountProvider) => `Connect or Update ${CLOUD_ACCOUNT_PROVIDER_NAMES[provider]} Account`,
  iamRoleFormat: 'IAM role ARN must match arn:aws:iam::<ACCOUNT ID>:role/<ROLE NAME>',
} as const;

/** arn:aws:iam::<12-digit ACCOUNT ID>:role/<ROLE NAME> (a role name may carry a path: role/ci/deployer). */
export const IAM_ROLE_ARN = /^arn:aws:iam::\d{12}:role\/[\w+=,.@-]+(\/[\w+=,.@-]+)*$/;

/** The AWS account id of a role ARN: its fifth colon-separated part (spec §3). */
export const awsAccountIdFromArn = (arn: string): string => arn.trim().split(':')[4] ?? '';

/** Whether an update value means "keep the stored secret": left out, empty or still the placeholder. */
export const keepsSecret = (value: string | undefined | null) => value === undefined || value === null || value === '' || value === SENSITIVE_PLACEHOLDER;

const Sensitive = z.literal(SENSITIVE_PLACEHOLDER);
const IamRole = RequiredText('IAM role ARN').regex(IAM_ROLE_ARN, cloudAccountMessages.iamRoleFormat);
const AwsAccountName = RequiredText('Account name', 30);
/** On update the secret may be left at its placeholder (or out): the stored one is kept. */
const KeptSecret = InputText().optional();

// ---------- AWS ----------

export const AwsAccountId = z.string().regex(/^\d{12}$/, 'AWS account id must be 12 digits');

export const AwsAccountBody = z.object({
  accountName: AwsAccountName,
  iamRole: IamRole,
  externalId: RequiredText('External ID'),
});
export type AwsAccountBody = z.infer<typeof AwsAccountBody>;

/** PUT: the role may change within the same AWS account; externalId left at '(sensitive)' (or out) keeps the stored one. */
export const UpdateAwsAccountBody = z.object({
  accountName: AwsAccountName,
  iamRole: IamRole,
  externalId: KeptSecret,
});
export type UpdateAwsAccountBody = z.infer<typeof UpdateAwsAccountBody>;

export const AwsAccount = z.object({
  /** The AWS account id (fifth part of the role ARN). */
  id: z.string(),
  accountName: z.string(),
  iamRole: z.string(),
  externalId: Sensitive,
});
export type AwsAccount = z.infer<typeof AwsAccount>;
export const AwsAccountList = z.object({ awsAccounts: z.array(AwsAccount) });
export type AwsAccountList = z.infer<typeof AwsAccountList>;
export const AwsAccountParams = ProjectIdParams.extend({ awsAccountId: InputText() });

// ---------- GCP ----------

export const GcpAccountBody = z.object({
  gcpProjectId: RequiredText('Project ID', 30),
  projectName: RequiredText('Project name'),
  targetServiceAccount: RequiredText('Service account'),
});
export type GcpAccountBody = z.infer<typeof GcpAccountBody>;

/** PUT: the GCP project id names the account and is not editable. */
export const UpdateGcpAccountBody = GcpAccountBody.omit({ gcpProjectId: true });
export type UpdateGcpAccountBody = z.infer<typeof UpdateGcpAccountBody>;

export const GcpAccount = z.object({ gcpProjectId: z.string(), projectName: z.string(), targetServiceAccount: z.string() });
export type GcpAccount = z.infer<typeof GcpAccount>;
export const GcpAccountList = z.object({ gcpAccounts: z.array(GcpAccount) });
export type GcpAccountList = z.infer<typeof GcpAccountList>;
export const GcpAccountParams = ProjectIdParams.extend({ gcpProjectId: InputText() });

// ---------- Azure ----------

export const AzureAccountBody = z.object({
  tenantId: RequiredText('Tenant ID', 36),
  applicationId: RequiredText('Application ID', 36),
  subscriptionId: RequiredText('Subscription ID', 64),
  subscriptionName: RequiredText('Subscription name', 64),
  clientSecret: RequiredText('Client secret'),
});
export type AzureAccountBody = z.infer<typeof AzureAccountBody>;

/** PUT (by tenantId and subscriptionId, which cannot be edited): clientSecret left at '(sensitive)' (or out) keeps the stored one. */
export const UpdateAzureAccountBody = z.object({
  applicationId: RequiredText('Application ID', 36),
  subscriptionName: RequiredText('Subscription name', 64),
  clientSecret: KeptSecret,
});
export type UpdateAzureAccountBody = z.infer<typeof UpdateAzureAccountBody>;

export const AzureAccount = z.object({
  tenantId: z.string(),
  subscriptionId: z.string(),
  applicationId: z.string(),
  subscriptionName: z.string(),
  clientSecret: Sensitive,
});
export type AzureAccount = z.infer<typeof AzureAccount>;
export const AzureAccountList = z.object({ azureAccounts: z.array(AzureAccount) });
export type AzureAccountList = z.infer<typeof AzureAccountList>;
export const AzureAccountParams = ProjectIdParams.extend({ tenantId: InputText(), subscriptionId: InputText() });

// ---------- forms ----------

/**
 * The dialogs validate on submit with these (spec §5). On update the secret field starts at the placeholder,
 * which satisfies "required"; `toUpdate*` then leaves it out so the server keeps the stored value.
 */
export const cloudAccountForms = {
  aws: AwsAccountBody,
  gcp: GcpAccountBody,
  azure: AzureAccountBody,
} as const;

export const toUpdateAwsBody = (form: AwsAccountBody): UpdateAwsAccountBody => ({
  accountName: form.accountName,
  iamRole: form.iamRole,
  ...(keepsSecret(form.externalId) ? {} : { externalId: form.externalId }),
});
export const toUpdateGcpBody = (form: GcpAccountBody): UpdateGcpAccountBody => ({
  projectName: form.projectName,
  targetServiceAccount: form.targetServiceAccount,
});
export const toUpdateAzureBody = (form: AzureAccountBody): UpdateAzureAccountBody => ({
  applicationId: form.applicationId,
  subscriptionName: form.subscriptionName,
  ...(keepsSecret(form.clientSecret) ? {} : { clientSecret: form.clientSecret }),
});
