import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFileSync } from 'node:child_process';

/**
 * Small tools for the sandbox attack tests: what the host sees (processes, files), and reading a
 * zip as it was served, without trusting the server's own code for it.
 */

/** Host processes whose command line contains `needle`: pid and argv. */
export function hostProcesses(needle: string): { pid: number; argv: string }[] {
  const found: { pid: number; argv: string }[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const argv = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (argv.includes(needle)) found.push({ pid: Number(entry), argv });
    } catch {
      /* ended meanwhile */
    }
  }
  return found;
}

/** Every regular file below `dir` (links not followed), with its content. */
export function* filesBelow(dir: string): Generator<{ file: string; content: Buffer }> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(full);
    else if (entry.isFile()) yield { file: full, content: fs.readFileSync(full) };
  }
}

/** The entries of a zip archive (from its central directory), inflated. */
export function unzip(buf: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip archive');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad zip central directory');
    const method = buf.readUInt16LE(p + 10);
    const size = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(start, start + size);
    entries.set(name, method === 8 ? zlib.inflateRawSync(data) : Buffer.from(data));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return entries;
}

/** Pushes a commit holding a symbolic link (local-git writes regular files only). */
export function commitSymlink(bareRepo: string, link: string, target: string, branch = 'main') {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-link-'));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Dev',
    GIT_AUTHOR_EMAIL: 'dev@example.com',
    GIT_COMMITTER_NAME: 'Dev',
    GIT_COMMITTER_EMAIL: 'dev@example.com',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: work, env, encoding: 'utf8' });
  try {
    git('clone', '-q', '--branch', branch, bareRepo, '.');
    fs.symlinkSync(target, path.join(work, link));
    git('add', '-A');
    git('commit', '-q', '-m', `link ${link}`);
    git('push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
