import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@gantry/test-support';
import { until } from './helpers.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = pathToFileURL(path.join(serverDir, 'build.mjs')).href;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-precompiled-'));
// inside the checkout, where the compiled files find their node_modules
const outdir = path.join(serverDir, '../../node_modules/.cache', `gantry-precompiled-${process.pid}`);
let child: ChildProcess | undefined;

afterAll(async () => {
  if (child?.exitCode === null) {
    const gone = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await gone;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(outdir, { recursive: true, force: true });
});

describe('the precompiled server (npm start)', () => {
  it('is built once per change of its sources and serves the SPA and then the API from the compiled JavaScript', async () => {
    const { ensureServerBuild } = (await import(build)) as { ensureServerBuild(o: { outdir: string }): Promise<string> };
    const entry = await ensureServerBuild({ outdir });
    expect(entry).toBe(path.join(outdir, 'main.js'));
    const builtAt = fs.statSync(entry).mtimeMs;
    expect(await ensureServerBuild({ outdir })).toBe(entry);
    expect(fs.statSync(entry).mtimeMs).toBe(builtAt); // unchanged sources: not built again
    // the entry is small: the app and the cloud SDKs are loaded after the port answers
    expect(fs.readFileSync(entry, 'utf8')).not.toMatch(/@aws-sdk|pg-boss|@electric-sql/);

    const port = await freePort();
    let output = '';
    child = spawn(process.execPath, [entry], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        GANTRY_DATA_DIR: path.join(tmp, 'data'),
        DATABASE_URL: '',
        SMTP_URL: '',
        GANTRY_LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (c) => (output += c));
    child.stderr!.on('data', (c) => (output += c));
    const get = (p: string) => fetch(`http://127.0.0.1:${port}${p}`).catch(() => null);
    await until(
      async () => (await get('/healthz'))?.status ?? 0,
      (status) => status === 200,
      `the API to be ready (${output})`,
      120_000,
    );
    expect(await (await get('/healthz'))!.json()).toEqual({ ok: true, database: 'pglite' });
    expect(output).toContain(`Gantry is running at http://localhost:${port}`);
  }, 180_000);
});
