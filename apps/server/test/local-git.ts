import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { serveGit } from '@gantry/test-support/git-standin/git-repos';
import type { GitAccess, GitClientForBuilds } from '../src/modules/pipelines/git-access.js';

/**
 * Real git repositories on disk behind the narrow interface builds use — for tests of the build
 * runner that should not depend on any provider's HTTP API (those have their own stand-in).
 * Builds clone them over smart HTTP (`git http-backend` on loopback), as from a real provider: the
 * build sandbox sees nothing of this machine's disk.
 */
export function createLocalGit() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-git-'));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    serveGit(req, res, { root, pathInfo: decodeURIComponent(url.pathname), query: url.search.slice(1), user: 'dev' });
  });
  server.listen(0, '127.0.0.1');
  server.unref();
  const httpUrl = (bare: string) => `http://127.0.0.1:${(server.address() as { port: number }).port}/${path.basename(bare)}`;
  const repos = new Map<string, string>();
  const hooks: { id: string; repo: string; url: string; secret: string }[] = [];
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', args, {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_NAME: 'Dev', GIT_AUTHOR_EMAIL: 'dev@example.com', GIT_COMMITTER_NAME: 'Dev', GIT_COMMITTER_EMAIL: 'dev@example.com' },
    }).trim();

  function commit(fullName: string, files: Record<string, string>, message = 'change', branch = 'main') {
    const bare = repos.get(fullName)!;
    const work = fs.mkdtempSync(path.join(root, 'work-'));
    git(work, 'init', '-q', '-b', branch);
    git(work, 'remote', 'add', 'origin', bare);
    if (git(bare, 'branch', '--list', branch)) {
      git(work, 'fetch', '-q', 'origin', branch);
      git(work, 'checkout', '-q', '-B', branch, 'FETCH_HEAD');
    }
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(work, file)), { recursive: true });
      fs.writeFileSync(path.join(work, file), content);
    }
    git(work, 'add', '-A');
    git(work, 'commit', '-q', '-m', message);
    git(work, 'push', '-q', 'origin', `HEAD:refs/heads/${branch}`);
    const sha = git(work, 'rev-parse', 'HEAD');
    fs.rmSync(work, { recursive: true, force: true });
    return sha;
  }

  const client: GitClientForBuilds = {
    cloneUrl: (repoUrl) => httpUrl(repoUrl),
    async getCommit(_token, repo, ref) {
      const [sha, author, message] = git(repos.get(repo)!, 'log', '-1', '--format=%H%n%an%n%s', ref).split('\n');
      return { sha: sha!, author: author!, message: message!, avatar: null };
    },
    async getFile(_token, repo, ref, file) {
      try {
        return execFileSync('git', ['show', `${ref}:${file}`], { cwd: repos.get(repo)!, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
      } catch {
        return null;
      }
    },
    async listRepositories() {
      return [...repos.entries()].map(([fullName, dir]) => ({ id: fullName, fullName, url: dir, defaultBranch: 'main' }));
    },
    async createWebhook(_token, repo, url, secret) {
      const id = crypto.randomUUID();
      hooks.push({ id, repo, url, secret });
      return id;
    },
    async deleteWebhook(_token, _repo, id) {
      const i = hooks.findIndex((h) => h.id === id);
      if (i >= 0) hooks.splice(i, 1);
    },
    parsePush(headers, rawBody, secret) {
      const expected = crypto.createHmac('sha256', secret).update(rawBody).digest('hex');
      if (headers['x-test-signature'] !== expected) throw new Error('bad signature');
      return { before: null, changedFilesComplete: true, ...JSON.parse(rawBody) };
    },
  };

  const access: GitAccess = {
    async clientFor() {
      return { client, token: 'local-token', account: { type: 'github' } };
    },
  };

  return {
    access,
    hooks,
    createRepo(fullName: string, files: Record<string, string>, branch = 'main') {
      const bare = path.join(root, `${fullName.replace('/', '__')}.git`);
      fs.mkdirSync(bare, { recursive: true });
      git(bare, 'init', '-q', '--bare', '-b', branch);
      repos.set(fullName, bare);
      const sha = commit(fullName, files, 'initial', branch);
      return { url: bare, sha };
    },
    commit,
    sign: (secret: string, body: string) => crypto.createHmac('sha256', secret).update(body).digest('hex'),
    close: () => {
      server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
