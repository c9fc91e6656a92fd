import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Git run without the machine's own configuration, so signing, hooks or templates there do not interfere. */
const gitEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: os.tmpdir(),
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_TERMINAL_PROMPT: '0',
  LANG: 'C',
  ...extra,
});

export async function git(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv(env), encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`git ${args.join(' ')} failed: ${stderr.toString().trim() || err.message}`));
      else resolve(stdout);
    });
  });
}
const gitText = async (args: string[], cwd: string, env?: Record<string, string>) => (await git(args, cwd, env)).toString('utf8');

export interface CommitData {
  sha: string;
  parents: string[];
  tree: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}
export interface FileChange {
  path: string;
  status: 'added' | 'modified' | 'removed';
}

const FULL_NAME = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
const FULL_SHA = /^[0-9a-f]{40}$/;
const SAFE_REF = (ref: string) => !!ref && !ref.startsWith('-') && !/[\s~^:?*[\\]|\.\./.test(ref);

/** Bare repositories under one root directory, named owner/name; read and written with the git CLI. */
export function createRepoStore(root: string) {
  const dirOf = (fullName: string) => path.join(root, `${fullName}.git`);
  const queues = new Map<string, Promise<unknown>>();

  /** One write at a time per repository. */
  function serial<T>(fullName: string, work: () => Promise<T>): Promise<T> {
    const prev = queues.get(fullName) ?? Promise.resolve();
    const next = prev.then(work, work);
    queues.set(
      fullName,
      next.catch(() => undefined),
    );
    return next;
  }

  async function resolve(fullName: string, ref: string): Promise<string | null> {
    if (!SAFE_REF(ref)) return null;
    try {
      return (await gitText(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], dirOf(fullName))).trim() || null;
    } catch {
      return null;
    }
  }

  // what a commit is and what it changed never change for its sha: read once per repository and sha, as a
  // provider's API answers them from its own store rather than by running git for each request
  const known = new Map<string, Promise<unknown>>();
  function once<T>(kind: string, fullName: string, sha: string, read: () => Promise<T>): Promise<T> {
    if (!FULL_SHA.test(sha)) return read();
    const key = `${kind}\0${fullName}\0${sha}`;
    let got = known.get(key) as Promise<T> | undefined;
    if (!got) {
      if (known.size >= 2000) known.delete(known.keys().next().value!);
      got = read();
      known.set(key, got);
      got.catch(() => known.delete(key));
    }
    return got;
  }

  const commitData = (fullName: string, sha: string) => once('commit', fullName, sha, () => readCommitData(fullName, sha));
  async function readCommitData(fullName: string, sha: string): Promise<CommitData> {
    const out = await gitText(['show', '-s', '--format=%H%x00%P%x00%T%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B', sha], dirOf(fullName));
    const [h, p, t, an, ae, ad, cn, ce, cd, ...msg] = out.split('\0');
    return {
      sha: h!,
      parents: p ? p.split(' ').filter(Boolean) : [],
      tree: t!,
      authorName: an!,
      authorEmail: ae!,
      authorDate: ad!,
      committerName: cn!,
      committerEmail: ce!,
      committerDate: cd!,
      message: msg.join('\0').replace(/\n+$/, ''),
    };
  }

  function parseNameStatus(out: string): FileChange[] {
    const changes: FileChange[] = [];
    for (const line of out.split('\n').filter(Boolean)) {
      const [status, ...rest] = line.split('\t');
      const file = rest.at(-1)!;
      changes.push({ path: file, status: status!.startsWith('A') ? 'added' : status!.startsWith('D') ? 'removed' : 'modified' });
    }
    return changes;
  }

  return {
    root,
    dirOf,
    exists: (fullName: string) => FULL_NAME.test(fullName) && fs.existsSync(dirOf(fullName)),

    async init(fullName: string, branch: string) {
      if (!FULL_NAME.test(fullName)) throw new Error(`A repository is named owner/name, not ${fullName}`);
      const dir = dirOf(fullName);
      if (fs.existsSync(dir)) throw new Error(`Repository ${fullName} already exists`);
      fs.mkdirSync(path.dirname(dir), { recursive: true });
      await git(['init', '--quiet', '--bare', `--initial-branch=${branch}`, dir], root);
      await git(['config', 'http.receivepack', 'true'], dir);
    },

    /**
     * Commits files (null deletes) to a branch through a temporary clone and pushes them into the bare repository.
     * A new branch starts from the default branch's head. Answers the new commit and the branch's previous head.
     */
    commit(fullName: string, files: Record<string, string | null>, message: string, branch: string, author: { name: string; email: string }) {
      return serial(fullName, async () => {
        const bare = dirOf(fullName);
        const work = fs.mkdtempSync(path.join(os.tmpdir(), 'git-standin-work-'));
        try {
          await git(['clone', '--quiet', bare, work], root);
          const before = await resolve(fullName, `refs/heads/${branch}`);
          const hasHead = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], work).then(
            () => true,
            () => false,
          );
          if (before) await git(['checkout', '--quiet', '-B', branch, `origin/${branch}`], work);
          else if (hasHead) await git(['checkout', '--quiet', '-b', branch], work);
          else await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`], work);
          for (const [file, content] of Object.entries(files)) {
            const target = path.join(work, file);
            if (!target.startsWith(work + path.sep)) throw new Error(`File path ${file} leaves the repository`);
            if (content === null) fs.rmSync(target, { force: true });
            else {
              fs.mkdirSync(path.dirname(target), { recursive: true });
              fs.writeFileSync(target, content);
            }
          }
          await git(['add', '--all'], work);
          const env = { GIT_AUTHOR_NAME: author.name, GIT_AUTHOR_EMAIL: author.email, GIT_COMMITTER_NAME: author.name, GIT_COMMITTER_EMAIL: author.email };
          await git(['commit', '--quiet', '--allow-empty', '--no-verify', '-m', message], work, env);
          await git(['push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`], work);
          const sha = (await gitText(['rev-parse', 'HEAD'], work)).trim();
          return { sha, before };
        } finally {
          fs.rmSync(work, { recursive: true, force: true });
        }
      });
    },

    async defaultBranch(fullName: string): Promise<string> {
      return (await gitText(['symbolic-ref', '--short', 'HEAD'], dirOf(fullName))).trim();
    },

    async branches(fullName: string): Promise<{ name: string; sha: string }[]> {
      const out = await gitText(['for-each-ref', '--sort=refname', '--format=%(refname:short)%00%(objectname)', 'refs/heads'], dirOf(fullName));
      return out
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [name, sha] = l.split('\0');
          return { name: name!, sha: sha! };
        });
    },

    resolve,
    commitData,

    /** The commits in after but not before (newest first), or all of after's history when before is null. */
    async commitsBetween(fullName: string, before: string | null, after: string): Promise<string[]> {
      const range = before ? [`${before}..${after}`] : [after];
      return (await gitText(['rev-list', '--max-count=100', ...range], dirOf(fullName))).split('\n').filter(Boolean);
    },

    /** Files a commit changed against its first parent (all its files for a root commit). */
    changesOf(fullName: string, sha: string): Promise<FileChange[]> {
      return once('changes', fullName, sha, async () =>
        parseNameStatus(await gitText(['diff-tree', '--no-commit-id', '-r', '--name-status', '--root', '--no-renames', sha], dirOf(fullName))),
      );
    },

    async changesBetween(fullName: string, from: string, to: string): Promise<FileChange[]> {
      return parseNameStatus(await gitText(['diff', '--name-status', '--no-renames', from, to], dirOf(fullName)));
    },

    /** A blob's bytes, a tree's entries, or null when the path does not exist at the commit. */
    async read(
      fullName: string,
      sha: string,
      file: string,
    ): Promise<{ kind: 'blob'; data: Buffer; sha: string } | { kind: 'tree'; entries: { name: string; type: 'blob' | 'tree'; sha: string }[] } | null> {
      const clean = file.replace(/^\/+|\/+$/g, '');
      const spec = `${sha}:${clean}`;
      const dir = dirOf(fullName);
      let type: string;
      try {
        type = (await gitText(['cat-file', '-t', spec], dir)).trim();
      } catch {
        return null;
      }
      if (type === 'blob') return { kind: 'blob', data: await git(['cat-file', 'blob', spec], dir), sha: (await gitText(['rev-parse', spec], dir)).trim() };
      if (type !== 'tree') return null;
      const out = await gitText(['ls-tree', spec.endsWith(':') ? sha : spec], dir);
      return {
        kind: 'tree',
        entries: out
          .split('\n')
          .filter(Boolean)
          .map((l) => {
            const [meta, name] = l.split('\t');
            const [, t, s] = meta!.split(' ');
            return { name: name!, type: t as 'blob' | 'tree', sha: s! };
          }),
      };
    },
  };
}
export type RepoStore = ReturnType<typeof createRepoStore>;

/**
 * Serves one smart-HTTP git request with `git http-backend` as a CGI (clone, fetch and push).
 * `pathInfo` is /<owner>/<name>.git/<rest>; `user` has been authenticated by the caller.
 */
export function serveGit(req: IncomingMessage, res: ServerResponse, o: { root: string; pathInfo: string; query: string; user: string }) {
  const env: Record<string, string> = {
    GIT_PROJECT_ROOT: o.root,
    GIT_HTTP_EXPORT_ALL: '1',
    PATH_INFO: o.pathInfo,
    REQUEST_METHOD: req.method ?? 'GET',
    QUERY_STRING: o.query,
    REMOTE_USER: o.user,
    REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
    SERVER_PROTOCOL: 'HTTP/1.1',
    GATEWAY_INTERFACE: 'CGI/1.1',
  };
  if (req.headers['content-type']) env.CONTENT_TYPE = req.headers['content-type'];
  if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
  if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = String(req.headers['content-encoding']);
  if (req.headers['git-protocol']) env.GIT_PROTOCOL = String(req.headers['git-protocol']);
  const child = spawn('git', ['http-backend'], { env: gitEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  req.pipe(child.stdin);
  child.stdin.on('error', () => undefined);
  let head = Buffer.alloc(0);
  let headDone = false;
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on('data', (chunk: Buffer) => {
    if (headDone) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const crlf = head.indexOf('\r\n\r\n');
    const lf = head.indexOf('\n\n');
    const end = crlf >= 0 && (lf < 0 || crlf < lf) ? { at: crlf, len: 4 } : lf >= 0 ? { at: lf, len: 2 } : null;
    if (!end) return;
    headDone = true;
    let status = 200;
    for (const line of head.subarray(0, end.at).toString('latin1').split(/\r?\n/)) {
      const i = line.indexOf(':');
      if (i < 0) continue;
      const name = line.slice(0, i).trim();
      const value = line.slice(i + 1).trim();
      if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 200;
      else res.setHeader(name, value);
    }
    res.statusCode = status;
    res.write(head.subarray(end.at + end.len));
  });
  child.on('close', (code) => {
    if (!headDone) {
      res.statusCode = 500;
      res.end(`git http-backend failed (${code}): ${stderr}`);
      return;
    }
    res.end();
  });
}
