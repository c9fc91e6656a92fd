import fs from 'node:fs';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it, expect, afterAll } from 'vitest';
import { freePort } from '@gantry/test-support';
import { openDatabase } from './db.js';

/**
 * A database Gantry cannot open says within seconds what is wrong, where, and what to do — not a
 * failed CREATE SCHEMA after 42 s, nor "PGlite failed to initialize properly".
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-startup-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('opening PostgreSQL', () => {
  it('names the host and port of a server that is not listening, without the password', async () => {
    const port = await freePort();
    const started = Date.now();
    const opening = openDatabase({ databaseUrl: `postgres://gantry:hunter22@127.0.0.1:${port}/gantry` });
    await expect(opening).rejects.toThrow(`Cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED). Check DATABASE_URL and that the server is running.`);
    await opening.catch((err: Error) => expect(err.message).not.toContain('hunter22'));
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('gives up on a server that never answers after the connect timeout', async () => {
    const silent = net.createServer(() => undefined); // accepts, then says nothing
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const { port } = silent.address() as net.AddressInfo;
    try {
      await expect(openDatabase({ databaseUrl: `postgres://gantry@127.0.0.1:${port}/gantry`, connectTimeoutMs: 500 })).rejects.toThrow(
        `No answer from PostgreSQL at 127.0.0.1:${port} within 0.5 s. Check DATABASE_URL, that the server is running and that no firewall is in the way.`,
      );
    } finally {
      silent.close();
    }
  });

  it('says when something other than PostgreSQL hangs up', async () => {
    const rude = net.createServer((socket) => socket.destroy());
    await new Promise<void>((r) => rude.listen(0, '127.0.0.1', () => r()));
    const { port } = rude.address() as net.AddressInfo;
    try {
      await expect(openDatabase({ databaseUrl: `postgres://gantry@127.0.0.1:${port}/gantry` })).rejects.toThrow(
        `Something at 127.0.0.1:${port} closed the connection before PostgreSQL answered. Check the host, port and sslmode in DATABASE_URL, and that a PostgreSQL server listens there.`,
      );
    } finally {
      rude.close();
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('says when the server refuses the login', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.username = 'gantry_no_such_user';
    url.password = 'wrong';
    await expect(openDatabase({ databaseUrl: url.toString() })).rejects.toThrow(
      /refused user gantry_no_such_user .*Check the user and password in DATABASE_URL/,
    );
  });
});

describe('opening the embedded database', () => {
  it('names a data dir it cannot write to, even as root', async () => {
    // a regular file where a directory is expected stops root as well as anyone
    const file = path.join(tmp, 'not-a-dir');
    fs.writeFileSync(file, '');
    const dataDir = path.join(file, 'data');
    const uid = process.getuid!();
    await expect(openDatabase({ dataDir })).rejects.toThrow(
      `The data dir ${dataDir} is not writable by this user (uid ${uid}; ENOTDIR at ${dataDir}/pglite). Fix its permissions or set GANTRY_DATA_DIR.`,
    );
  });

  it.skipIf(process.getuid?.() === 0)('names a read-only data dir (not as root: permission bits do not stop root)', async () => {
    const dataDir = path.join(tmp, 'read-only');
    fs.mkdirSync(dataDir, { mode: 0o555 });
    await expect(openDatabase({ dataDir })).rejects.toThrow(/^The data dir .*read-only is not writable by this user \(uid \d+; EACCES/);
  });
});

describe('the gantry command', () => {
  const serverMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../main.ts');
  const tsx = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../node_modules/tsx/dist/cli.mjs');

  it('exits 1 with the reason when PostgreSQL cannot be reached', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [tsx, serverMain, 'migrate'], {
      env: { ...process.env, DATABASE_URL: `postgres://gantry:pw@127.0.0.1:${port}/gantry`, GANTRY_DATA_DIR: path.join(tmp, 'cli') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c) => {
      stderr += c;
    });
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED)`);
  }, 60_000);
});
