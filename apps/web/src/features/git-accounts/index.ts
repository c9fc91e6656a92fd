/** The Git accounts feature's public surface: the Settings tab. */
export { default as GitAccountsTab } from './GitAccountsTab';
