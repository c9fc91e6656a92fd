// Every table, for drizzle's typed queries and for migration generation.
export * from './mail.tables.js';
export * from '../modules/users/users.tables.js';
export * from '../modules/projects/projects.tables.js';
export * from '../modules/billing/billing.tables.js';
