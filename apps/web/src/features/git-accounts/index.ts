/** The Git accounts feature's public surface: the Settings tab, and the account, repository and branch lists the pipelines feature reads. */
export { default as GitAccountsTab } from './GitAccountsTab';
export { useGitAccounts } from './api/list-git-accounts';
export { useGitRepositories } from './api/list-git-repositories';
export { useGitBranches } from './api/list-git-branches';
