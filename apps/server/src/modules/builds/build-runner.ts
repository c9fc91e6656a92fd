/** The builds' runs live in builds.jobs.ts; this name stays for what imports it from outside the module (test/crash-recovery.test.ts). */
export { INTERRUPTED } from './builds.jobs.js';
