export * from './ports.js';
export * from './smtp.js';
export * from './postgres.js';
export * from './aws-sts.js';
export * from './registry/index.js';
export * from './registry/standins.js';
export * from './kube-standin/index.js';
export * from './aws-standin/index.js';
