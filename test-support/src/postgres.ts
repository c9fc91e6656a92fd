import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import { freePort } from './ports.js';

/**
 * A throwaway PostgreSQL server: loopback only, data in a temp folder, a random password over TCP
 * (build steps under test share the machine's loopback: a trusting server would let them in).
 */
export interface ThrowawayPostgres {
  /** postgres://postgres:PASSWORD@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  dataDir: string;
  socketDir: string;
  version: string;
  stop(): void;
}

/** The newest Debian PostgreSQL bin directory (/usr/lib/postgresql/<ver>/bin) that has initdb, or undefined. */
export function findPostgresBin(root = '/usr/lib/postgresql'): string | undefined {
  if (process.env.PG_BIN && fs.existsSync(path.join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  if (!fs.existsSync(root)) return undefined;
  const versions = fs
    .readdirSync(root)
    .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number.parseFloat(b) - Number.parseFloat(a));
  return versions.length ? path.join(root, versions[0], 'bin') : undefined;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Root may not run initdb/postgres: run them as the `postgres` system user then. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function run(bin: string, args: string[], what: string) {
  const [cmd, argv] = asServerUser(bin, args);
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}\n${r.stderr}`);
  }
  return r.stdout;
}

function makeDir(prefix: string, base: string) {
  const dir = fs.mkdtempSync(path.join(base, prefix));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    fs.chownSync(dir, uid, gid);
  }
  fs.chmodSync(dir, 0o700);
  return dir;
}

const running = new Set<ThrowawayPostgres>();
let exitHookInstalled = false;

/**
 * Starts a PostgreSQL server from Debian's binaries on a free loopback port (a password over TCP, socket
 * directory in /tmp, durability off for speed) and waits until it accepts connections.
 * Call stop() when done; servers still running when the process exits are stopped then.
 */
export async function startPostgres(options: { port?: number; bin?: string; maxConnections?: number } = {}): Promise<ThrowawayPostgres> {
  const bin = options.bin ?? findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found under /usr/lib/postgresql/<ver>/bin (apt-get install postgresql)');
  const version = path.basename(path.dirname(bin));
  const dataDir = makeDir('gantry-pg-data-', isRoot() ? '/tmp' : os.tmpdir());
  const socketDir = makeDir('gantry-pg-sock-', '/tmp');
  const logFile = path.join(dataDir, 'server.log');

  const password = crypto.randomBytes(12).toString('hex');
  const pwFile = path.join(socketDir, '.pw'); // outside the data dir: initdb wants it empty
  fs.writeFileSync(pwFile, password, { mode: 0o600 });
  if (isRoot()) fs.chownSync(pwFile, fs.statSync(socketDir).uid, fs.statSync(socketDir).gid);
  run(
    path.join(bin, 'initdb'),
    ['-D', dataDir, '-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwFile}`, '-E', 'UTF8', '--locale=C', '--no-sync'],
    'initdb',
  );
  fs.rmSync(pwFile, { force: true });

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = options.port ?? (await freePort());
    const serverOptions = [
      `-p ${port}`,
      `-k ${socketDir}`,
      `-c listen_addresses=127.0.0.1`,
      `-c max_connections=${options.maxConnections ?? 200}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    try {
      run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start'], 'pg_ctl start');
    } catch (err) {
      lastError = new Error(`${(err as Error).message}\n${fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').slice(-2000) : ''}`);
      if (options.port) break;
      continue;
    }
    let stopped = false;
    const pg: ThrowawayPostgres = {
      url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
      port,
      dataDir,
      socketDir,
      version,
      stop() {
        if (stopped) return;
        stopped = true;
        running.delete(pg);
        try {
          run(path.join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], 'pg_ctl stop');
        } finally {
          fs.rmSync(dataDir, { recursive: true, force: true });
          fs.rmSync(socketDir, { recursive: true, force: true });
        }
      },
    };
    running.add(pg);
    if (!exitHookInstalled) {
      exitHookInstalled = true;
      process.once('exit', () => {
        for (const p of [...running]) {
          try {
            p.stop();
          } catch {
            /* best effort at exit */
          }
        }
      });
    }
    return pg;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(socketDir, { recursive: true, force: true });
  throw lastError;
}
