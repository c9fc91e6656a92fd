/** The cloud accounts feature's public surface: the Settings tab. */
export { default as CloudAccountsTab } from './CloudAccountsTab';
