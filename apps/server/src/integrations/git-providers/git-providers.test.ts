import crypto from 'node:crypto';
import { describe, it, expect } from 'vitest';
import { createBitbucketClient, createGithubClient, createGitlabClient, InvalidSignature, nextLink, timingSafeEqualText } from './index.js';

const github = createGithubClient({
  clientId: 'gh-id',
  clientSecret: 'gh-secret',
  oauthUrl: 'https://ghe.example.com/',
  apiUrl: 'https://ghe.example.com/api/v3',
  redirectUri: 'https://gantry.example/settings?tab=git&type=github',
});
const gitlab = createGitlabClient({
  clientId: 'gl-id',
  clientSecret: 'gl-secret',
  url: 'https://gitlab.example.com',
  redirectUri: 'https://gantry.example/settings?tab=git&type=gitlab',
});
const bitbucket = createBitbucketClient({
  clientId: 'bb-id',
  clientSecret: 'bb-secret',
  oauthUrl: 'https://bitbucket.org',
  apiUrl: 'https://api.bitbucket.org/2.0',
});

const SECRET = 'hook-secret';
const hmac = (alg: 'sha1' | 'sha256', body: string, secret = SECRET) => crypto.createHmac(alg, secret).update(body).digest('hex');
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const ZERO = '0'.repeat(40);

const githubPush = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    ref: 'refs/heads/main',
    before: A,
    after: B,
    created: false,
    deleted: false,
    commits: [
      { id: 'c'.repeat(40), message: 'First', author: { name: 'Ada', email: 'ada@example.com' }, added: ['src/a.ts'], modified: [], removed: [] },
      {
        id: B,
        message: 'Second',
        author: { name: 'Ada', email: 'ada@example.com', username: 'ada' },
        added: [],
        modified: ['src/a.ts', 'README.md'],
        removed: ['old.txt'],
      },
    ],
    head_commit: {
      id: B,
      message: 'Second',
      author: { name: 'Ada', email: 'ada@example.com', username: 'ada' },
      added: [],
      modified: ['src/a.ts', 'README.md'],
      removed: ['old.txt'],
    },
    pusher: { name: 'ada', email: 'ada@example.com' },
    ...o,
  });
const gitlabPush = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    object_kind: 'push',
    event_name: 'push',
    before: A,
    after: B,
    ref: 'refs/heads/feature/x',
    checkout_sha: B,
    user_name: 'Grace',
    commits: [
      { id: 'c'.repeat(40), message: 'One\n', author: { name: 'Grace', email: 'g@example.com' }, added: ['a'], modified: [], removed: [] },
      { id: B, message: 'Two\n', author: { name: 'Grace Hopper', email: 'g@example.com' }, added: [], modified: ['b'], removed: ['c'] },
    ],
    total_commits_count: 2,
    ...o,
  });
const bitbucketPush = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    push: {
      changes: [
        {
          old: { type: 'branch', name: 'main', target: { type: 'commit', hash: A } },
          new: { type: 'branch', name: 'main', target: { type: 'commit', hash: B, message: 'Fix it\n', author: { raw: 'Linus T <l@example.com>' } } },
          created: false,
          closed: false,
          commits: [],
        },
      ],
    },
    actor: { display_name: 'Linus' },
    ...o,
  });

describe('GitHub webhooks', () => {
  const headers = (body: string, event = 'push', sig = `sha256=${hmac('sha256', body)}`) => ({
    'x-github-event': event,
    'x-hub-signature-256': sig,
    'content-type': 'application/json',
  });

  it('reads a signed push: branch, head commit, author and every changed file', () => {
    const body = githubPush();
    expect(github.parsePush(headers(body), body, SECRET)).toEqual({
      branch: 'main',
      sha: B,
      before: A,
      message: 'Second',
      author: 'Ada',
      changedFiles: ['src/a.ts', 'README.md', 'old.txt'],
      changedFilesComplete: true,
    });
  });

  it('accepts header names in any case and an upper-case hex signature', () => {
    const body = githubPush();
    expect(github.parsePush({ 'X-GitHub-Event': 'push', 'X-Hub-Signature-256': `sha256=${hmac('sha256', body).toUpperCase()}` }, body, SECRET)?.sha).toBe(B);
  });

  it('throws on a wrong, missing or SHA-1-only signature, and on a tampered body', () => {
    const body = githubPush();
    expect(() => github.parsePush(headers(body, 'push', `sha256=${hmac('sha256', body, 'other')}`), body, SECRET)).toThrow(InvalidSignature);
    expect(() => github.parsePush({ 'x-github-event': 'push' }, body, SECRET)).toThrow(InvalidSignature);
    expect(() => github.parsePush({ 'x-github-event': 'push', 'x-hub-signature': `sha1=${hmac('sha1', body)}` }, body, SECRET)).toThrow(InvalidSignature);
    expect(() => github.parsePush(headers(body), body.replace('Second', 'Evil'), SECRET)).toThrow(InvalidSignature);
    expect(() => github.parsePush(headers(body), body, '')).toThrow(InvalidSignature);
  });

  it('answers null for ping, tag pushes and branch deletions (once verified)', () => {
    const ping = JSON.stringify({ zen: 'hi', hook_id: 1 });
    expect(github.parsePush(headers(ping, 'ping'), ping, SECRET)).toBeNull();
    const tag = githubPush({ ref: 'refs/tags/v1' });
    expect(github.parsePush(headers(tag), tag, SECRET)).toBeNull();
    const deleted = githubPush({ deleted: true, after: ZERO });
    expect(github.parsePush(headers(deleted), deleted, SECRET)).toBeNull();
  });

  it('marks a new branch (zero before) and a 20-commit payload as possibly incomplete', () => {
    const created = githubPush({ before: ZERO, created: true });
    expect(github.parsePush(headers(created), created, SECRET)).toMatchObject({ before: null });
    const many = githubPush({ commits: Array.from({ length: 20 }, (_, i) => ({ id: String(i), message: 'm', added: [`f${i}`] })) });
    expect(github.parsePush(headers(many), many, SECRET)?.changedFilesComplete).toBe(false);
  });

  it('reads form-encoded deliveries (payload=…) too', () => {
    const body = new URLSearchParams({ payload: githubPush() }).toString();
    expect(github.parsePush(headers(body), body, SECRET)?.branch).toBe('main');
  });
});

describe('GitLab webhooks', () => {
  const headers = (token = SECRET, event = 'Push Hook') => ({ 'x-gitlab-event': event, 'x-gitlab-token': token });

  it('reads a push authenticated by X-Gitlab-Token', () => {
    const body = gitlabPush();
    expect(gitlab.parsePush(headers(), body, SECRET)).toEqual({
      branch: 'feature/x',
      sha: B,
      before: A,
      message: 'Two\n',
      author: 'Grace Hopper',
      changedFiles: ['a', 'b', 'c'],
      changedFilesComplete: true,
    });
  });

  it('throws when the token is wrong, a prefix of the secret, or missing', () => {
    const body = gitlabPush();
    expect(() => gitlab.parsePush(headers('nope'), body, SECRET)).toThrow(InvalidSignature);
    expect(() => gitlab.parsePush(headers(SECRET.slice(0, 4)), body, SECRET)).toThrow(InvalidSignature);
    expect(() => gitlab.parsePush({ 'x-gitlab-event': 'Push Hook' }, body, SECRET)).toThrow(InvalidSignature);
  });

  it('answers null for tag pushes, other events and branch deletions', () => {
    const tag = gitlabPush({ object_kind: 'tag_push', ref: 'refs/tags/v1' });
    expect(gitlab.parsePush(headers(SECRET, 'Tag Push Hook'), tag, SECRET)).toBeNull();
    expect(gitlab.parsePush(headers(SECRET, 'Merge Request Hook'), JSON.stringify({ object_kind: 'merge_request' }), SECRET)).toBeNull();
    const deleted = gitlabPush({ after: ZERO, checkout_sha: null, commits: [], total_commits_count: 0 });
    expect(gitlab.parsePush(headers(), deleted, SECRET)).toBeNull();
  });

  it('knows a payload with fewer commits than total_commits_count is incomplete', () => {
    const body = gitlabPush({ total_commits_count: 40 });
    expect(gitlab.parsePush(headers(), body, SECRET)?.changedFilesComplete).toBe(false);
  });
});

describe('Bitbucket webhooks', () => {
  const headers = (body: string, event = 'repo:push', secret = SECRET) => ({
    'x-event-key': event,
    'x-hub-signature': `sha256=${hmac('sha256', body, secret)}`,
  });

  it('reads a signed repo:push; the payload names no files, so changedFiles is marked incomplete', () => {
    const body = bitbucketPush();
    expect(bitbucket.parsePush(headers(body), body, SECRET)).toEqual({
      branch: 'main',
      sha: B,
      before: A,
      message: 'Fix it',
      author: 'Linus T',
      changedFiles: [],
      changedFilesComplete: false,
    });
  });

  it('throws on a bad or missing signature', () => {
    const body = bitbucketPush();
    expect(() => bitbucket.parsePush(headers(body, 'repo:push', 'other'), body, SECRET)).toThrow(InvalidSignature);
    expect(() => bitbucket.parsePush({ 'x-event-key': 'repo:push' }, body, SECRET)).toThrow(InvalidSignature);
  });

  it('answers null for other events, tag pushes and closed branches', () => {
    const pr = JSON.stringify({ pullrequest: {} });
    expect(bitbucket.parsePush(headers(pr, 'pullrequest:created'), pr, SECRET)).toBeNull();
    const tag = bitbucketPush({ push: { changes: [{ new: { type: 'tag', name: 'v1', target: { hash: B } }, old: null }] } });
    expect(bitbucket.parsePush(headers(tag), tag, SECRET)).toBeNull();
    const closed = bitbucketPush({ push: { changes: [{ new: null, old: { type: 'branch', name: 'x', target: { hash: A } }, closed: true }] } });
    expect(bitbucket.parsePush(headers(closed), closed, SECRET)).toBeNull();
  });
});

describe('authorize URLs', () => {
  it('carry the client id, the scopes, state redirect:portal and the redirect URI', () => {
    const gh = new URL(github.authorizeUrl());
    expect(gh.origin + gh.pathname).toBe('https://ghe.example.com/login/oauth/authorize');
    expect(Object.fromEntries(gh.searchParams)).toEqual({
      client_id: 'gh-id',
      scope: 'repo',
      state: 'redirect:portal',
      redirect_uri: 'https://gantry.example/settings?tab=git&type=github',
    });
    const gl = new URL(gitlab.authorizeUrl());
    expect(gl.origin + gl.pathname).toBe('https://gitlab.example.com/oauth/authorize');
    expect(Object.fromEntries(gl.searchParams)).toMatchObject({
      client_id: 'gl-id',
      response_type: 'code',
      scope: 'read_repository api read_user',
      state: 'redirect:portal',
    });
    const bb = new URL(bitbucket.authorizeUrl());
    expect(bb.origin + bb.pathname).toBe('https://bitbucket.org/site/oauth2/authorize');
    expect(Object.fromEntries(bb.searchParams)).toEqual({
      client_id: 'bb-id',
      response_type: 'code',
      scope: 'repository account webhook',
      state: 'redirect:portal',
    });
  });
});

describe('clone URLs', () => {
  it("put the token in each provider's https credentials form, URL-encoded", () => {
    expect(github.cloneUrl('https://github.com/acme/app', 'gho_abc')).toBe('https://x-access-token:gho_abc@github.com/acme/app');
    expect(gitlab.cloneUrl('https://gitlab.example.com/group/sub/app.git', 'tok')).toBe('https://oauth2:tok@gitlab.example.com/group/sub/app.git');
    expect(bitbucket.cloneUrl('https://bitbucket.org/ws/app', 'a/b+c=')).toBe('https://x-token-auth:a%2Fb%2Bc%3D@bitbucket.org/ws/app');
  });
});

describe('helpers', () => {
  it('reads rel="next" from a Link header', () => {
    expect(nextLink('<https://api/x?page=2>; rel="next", <https://api/x?page=5>; rel="last"')).toBe('https://api/x?page=2');
    expect(nextLink('<https://api/x?page=1>; rel="prev"')).toBeUndefined();
    expect(nextLink(null)).toBeUndefined();
  });
  it('compares texts of any length without throwing', () => {
    expect(timingSafeEqualText('abc', 'abc')).toBe(true);
    expect(timingSafeEqualText('abc', 'abcd')).toBe(false);
    expect(timingSafeEqualText('', 'x')).toBe(false);
  });
});
