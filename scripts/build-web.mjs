#!/usr/bin/env node
// `npm start`'s web step: builds apps/web only when its inputs changed since the last build,
// so a restart on an unchanged checkout does not spend 8–22 s in Vite (issue 14).
// The inputs are hashed by content (a checkout or `touch` alone does not rebuild); the hash is kept in dist/.inputs.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fingerprint as hashInputs } from './fingerprint.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const stamp = path.join(web, 'dist/.inputs');
const inputs = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/postcss.config.cjs',
  'apps/web/package.json',
  'packages/contracts/src',
  'packages/contracts/scripts',
  'package-lock.json',
];

const fingerprint = hashInputs(root, inputs);

const built = fs.existsSync(path.join(web, 'dist/index.html')) && fs.readFileSync(stamp, { encoding: 'utf8', flag: 'a+' }) === fingerprint;
if (built && !process.argv.includes('--force')) {
  console.log('web app: up to date (apps/web/dist)');
  process.exit(0);
}
const r = spawnSync('npm', ['run', 'build', '-w', '@gantry/web'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
fs.writeFileSync(stamp, fingerprint);
