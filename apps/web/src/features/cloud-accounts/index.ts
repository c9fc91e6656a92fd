/**
 * The cloud accounts feature's public surface: the Settings tab, and the account lists other screens (an
 * environment's account pickers) read under this feature's query keys, so adding or removing an account refreshes them.
 */
export { default as CloudAccountsTab } from './CloudAccountsTab';
export { awsAccountsQuery, useAwsAccounts } from './api/list-aws-accounts';
export { azureAccountsQuery, useAzureAccounts } from './api/list-azure-accounts';
export { gcpAccountsQuery, useGcpAccounts } from './api/list-gcp-accounts';
export { NoAwsAccounts } from './components/NoAwsAccounts';
