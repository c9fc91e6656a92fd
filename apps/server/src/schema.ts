// Every table, for migration generation (drizzle.config.ts). Stores import their own module's tables.
export * from './platform/mail.tables.js';
export * from './platform/realtime.tables.js';
export * from './modules/users/users.tables.js';
export * from './modules/projects/projects.tables.js';
export * from './modules/billing/billing.tables.js';
export * from './modules/git-accounts/git-accounts.tables.js';
export * from './modules/pipelines/pipelines.tables.js';
export * from './modules/builds/builds.tables.js';
export * from './modules/notifications/notifications.tables.js';
export * from './modules/cloud-accounts/cloud-accounts.tables.js';
export * from './modules/components/components.tables.js';
export * from './modules/stages/stages.tables.js';
export * from './modules/schedules/schedules.tables.js';
export * from './modules/deployments/deployments.tables.js';
export * from './modules/registries/registries.tables.js';
export * from './modules/clusters/clusters.tables.js';
export * from './modules/advisor/advisor.tables.js';
