#!/usr/bin/env node
// The server precompiled (issue 14): `npm start` runs dist/main.js, bundled by esbuild from src/ and the
// contracts, instead of transpiling every file with tsx at each start. It is rebuilt only when a source
// changed: the inputs' contents are hashed into dist/.inputs. `node build.mjs` builds when needed
// (`--force`: always); tests and `npm run dev` keep running the TypeScript sources through tsx.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fingerprint } from '../../scripts/fingerprint.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const inputs = [
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/build.mjs',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'package-lock.json',
];

/** Bare imports stay imports of node_modules, except the workspace's own TypeScript packages (@gantry/…). */
const dependenciesOutside = {
  name: 'dependencies-outside',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@gantry/') ? undefined : { path: args.path, external: true }));
  },
};

/** Each file keeps its own import.meta.url, so paths it resolves from itself (migrations, web/dist, vendor-components) stay right. */
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: fs.readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** Builds dist/ (or `outdir`) when its inputs changed since the last build; answers the entry file. */
export async function ensureServerBuild({ force = false, outdir = path.join(here, 'dist') } = {}) {
  const stampFile = path.join(outdir, '.inputs');
  const entry = path.join(outdir, 'main.js');
  // where the checkout is counts too: the bundle keeps its source files' URLs
  const stamp = fingerprint(root, inputs, { salt: root, skip: (name) => name.endsWith('.test.ts') });
  if (!force && fs.existsSync(entry) && fs.readFileSync(stampFile, { encoding: 'utf8', flag: 'a+' }) === stamp) return entry;
  const t0 = Date.now();
  const esbuild = await import('esbuild');
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    // the database template's builder is an entry of its own: start.mjs runs it before the server (db-template.ts)
    entryPoints: [path.join(here, 'src/main.ts'), path.join(here, 'src/platform/db-template.ts')],
    outdir,
    bundle: true,
    // modules imported with import() (the app after the port listens) become chunks of their own
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [dependenciesOutside, ownUrls],
  });
  fs.writeFileSync(stampFile, stamp);
  console.log(`server: compiled to ${path.relative(root, outdir)} in ${Date.now() - t0} ms`);
  return entry;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureServerBuild({ force: process.argv.includes('--force') });
}
