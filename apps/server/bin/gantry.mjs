#!/usr/bin/env node
// Runs the TypeScript CLI through tsx so `npx gantry …` works from a checkout without a build step.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const tsxCli = require.resolve('tsx/cli');
const result = spawnSync(process.execPath, [tsxCli, path.join(here, '../src/main.ts'), ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
