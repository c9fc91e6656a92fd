export * from './common.js';
export * from './roles.js';
export * from './auth.js';
export * from './plans.js';
export * from './projects.js';
export * from './status.js';
export * from './pipelines.js';
export * from './pipeline-spec.js';
