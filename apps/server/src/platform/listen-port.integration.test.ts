import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it, expect, afterAll } from 'vitest';

/**
 * `npm start` without the right to bind port 80: the real server (bin/gantry.mjs, as `npm start` runs it) with no
 * PORT is refused port 80 (EACCES), so it listens on a free port from 8080 on and prints that URL. It runs as root
 * without CAP_NET_BIND_SERVICE (setpriv drops it from the bounding set), which is refused port 80 exactly as a user
 * who is not root is; becoming `nobody` instead needed a checkout `nobody` can read, and a clone in a 0700
 * `mktemp -d` is not. Needs root to drop the capability, as CI runs.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-nonroot-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('starting without the right to bind port 80 (not root)', () => {
  it.runIf(process.getuid?.() === 0)('listens on a free port instead of 80 and prints its URL', { timeout: 180_000 }, async () => {
    const child = spawn('setpriv', ['--bounding-set=-net_bind_service', process.execPath, 'bin/gantry.mjs'], {
      cwd: serverDir,
      env: { PATH: process.env.PATH, HOME: dataDir, GANTRY_DATA_DIR: dataDir, HOST: '127.0.0.1', GANTRY_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const seen = (chunk: Buffer) => {
          output += chunk.toString();
          const m = /Gantry is running at (http:\/\/localhost:\d+)\n.*\n/.exec(output);
          if (m) resolve(m[1]!);
        };
        child.stdout.on('data', seen);
        child.stderr.on('data', seen);
        void exited.then((code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
      });
      const port = Number(new URL(url).port);
      expect(port).toBeGreaterThanOrEqual(8080);
      expect(output).toContain(
        `Gantry is running at ${url}\n  Port 80 needs root (ports below 1024 do), so Gantry took the first free port from 8080; set PORT to choose one.\n`,
      );
      const health = await fetch(`${url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ ok: true });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
