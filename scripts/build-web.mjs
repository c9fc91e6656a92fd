#!/usr/bin/env node
// `npm start`'s web step: builds apps/web only when its inputs changed since the last build,
// so a restart on an unchanged checkout does not spend 8–22 s in Vite (issue 14).
// The inputs are fingerprinted by path, size and mtime; the fingerprint is kept in dist/.inputs.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
  'package-lock.json',
];

function* files(p) {
  const st = fs.statSync(p, { throwIfNoEntry: false });
  if (!st) return;
  if (!st.isDirectory()) return yield [p, st];
  for (const name of fs.readdirSync(p).sort()) yield* files(path.join(p, name));
}

const hash = crypto.createHash('sha256');
for (const input of inputs) for (const [p, st] of files(path.join(root, input))) hash.update(`${path.relative(root, p)}\0${st.size}\0${st.mtimeMs}\n`);
const fingerprint = hash.digest('hex');

const built = fs.existsSync(path.join(web, 'dist/index.html')) && fs.readFileSync(stamp, { encoding: 'utf8', flag: 'a+' }) === fingerprint;
if (built && !process.argv.includes('--force')) {
  console.log('web app: up to date (apps/web/dist)');
  process.exit(0);
}
const r = spawnSync('npm', ['run', 'build', '-w', '@gantry/web'], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);
fs.writeFileSync(stamp, fingerprint);
