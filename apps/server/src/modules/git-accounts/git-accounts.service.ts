import type { ConnectGitAccountBody, GitAccount, GitProvider, GitRepository } from '@gantry/contracts';
import type { SecretBox } from '../../platform/secrets.js';
import { AppError, Conflict, NotFound, Upstream, Validation } from '../../platform/errors.js';
import { GitProviderError, type GitProviderClient, type GitProviderClients, type TokenSet } from '../../integrations/git-providers/index.js';
import type { GitAccountRow, GitAccountsStore } from './git-accounts.store.js';

/** Names of the pipelines that use a git account (the pipelines module answers it); removal is refused while any do. */
export type UsedByPipelines = (gitAccountId: string) => Promise<string[]>;

const TYPE_NAMES: Record<GitProvider, string> = { github: 'GitHub', gitlab: 'GitLab', bitbucket: 'Bitbucket' };
/** A token this close to its expiry is refreshed before use. */
const REFRESH_MARGIN_MS = 60_000;

const toAccount = (row: GitAccountRow): GitAccount => ({ gitAccountId: row.id, accountName: row.accountName, type: row.type });

/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error in `cause`). */
function pgCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export function createGitAccountsService(deps: {
  store: GitAccountsStore;
  secrets: SecretBox;
  clients: GitProviderClients;
  usedByPipelines?: UsedByPipelines;
  now?: () => Date;
}) {
  const { store, secrets, clients } = deps;
  const now = deps.now ?? (() => new Date());
  const usedByPipelines = deps.usedByPipelines ?? (async () => []);
  /** One refresh per stored refresh token at a time (providers revoke a refresh token once used). */
  const refreshes = new Map<string, { sealedRefresh: string; result: Promise<string> }>();

  function clientOf(type: GitProvider): GitProviderClient {
    const client = clients[type];
    if (!client)
      throw new Validation(`${TYPE_NAMES[type]} accounts are not enabled on this Gantry instance`, { type: [`${TYPE_NAMES[type]} is not configured`] });
    return client;
  }

  /** Provider failures as Gantry errors: a refused grant or token is the caller's to fix, the rest is upstream. */
  function providerFailure(err: unknown, what: string): AppError {
    if (err instanceof AppError) return err;
    if (err instanceof GitProviderError) {
      if (err.status === 401 || err.status === 403)
        return new Upstream(`${what}: the account's authorization was refused by ${TYPE_NAMES[err.provider]}; remove the account and connect it again`);
      return new Upstream(`${what}: ${err.message}`);
    }
    return new Upstream(`${what}: ${(err as Error)?.message ?? String(err)}`);
  }

  async function accountOrThrow(projectId: string, gitAccountId: string) {
    const row = await store.byId(projectId, gitAccountId);
    if (!row) throw new NotFound('Git account not found');
    return row;
  }

  function sealTokens(tokens: TokenSet, previousRefreshSealed: string | null = null) {
    return {
      accessTokenSealed: secrets.seal(tokens.accessToken),
      refreshTokenSealed: tokens.refreshToken ? secrets.seal(tokens.refreshToken) : previousRefreshSealed,
      tokenExpiresAt: tokens.expiresAt ?? null,
    };
  }

  /** The row's access token, refreshed (and re-sealed) first when it has expired or is about to. */
  async function accessToken(row: GitAccountRow, client: GitProviderClient): Promise<string> {
    const expired = row.tokenExpiresAt && row.tokenExpiresAt.getTime() - REFRESH_MARGIN_MS <= now().getTime();
    if (!expired || !row.refreshTokenSealed) return secrets.open(row.accessTokenSealed);
    const sealedRefresh = row.refreshTokenSealed;
    const running = refreshes.get(row.id);
    if (running && running.sealedRefresh === sealedRefresh) return running.result;
    const result = (async () => {
      const tokens = await client.refresh(secrets.open(sealedRefresh)).catch((err: unknown) => {
        throw providerFailure(err, "Could not refresh the Git account's access token");
      });
      await store.updateTokens(row.id, sealTokens(tokens, sealedRefresh));
      return tokens.accessToken;
    })();
    refreshes.set(row.id, { sealedRefresh, result });
    result.catch(() => {
      if (refreshes.get(row.id)?.result === result) refreshes.delete(row.id);
    });
    return result;
  }

  async function clientFor(projectId: string, gitAccountId: string) {
    const row = await accountOrThrow(projectId, gitAccountId);
    const client = clientOf(row.type);
    return { client, token: await accessToken(row, client), account: toAccount(row) };
  }

  const norm = (u: string) =>
    u
      .trim()
      .replace(/\.git$/, '')
      .replace(/\/+$/, '')
      .toLowerCase();

  return {
    /** The authorize page of each configured provider (the Git tab's "Connect … Account" buttons). */
    providers(): Record<GitProvider, { authorizeUrl: string } | null> {
      const link = (type: GitProvider) => (clients[type] ? { authorizeUrl: clients[type]!.authorizeUrl() } : null);
      return { github: link('github'), gitlab: link('gitlab'), bitbucket: link('bitbucket') };
    },

    async list(projectId: string): Promise<GitAccount[]> {
      return (await store.list(projectId)).map(toAccount);
    },

    /** Finishes an OAuth connection: code → tokens → the provider user; tokens are stored sealed. */
    async connect(projectId: string, userId: string, body: ConnectGitAccountBody): Promise<{ gitAccountId: string }> {
      const client = clientOf(body.type);
      const tokens = await client.exchangeCode(body.code, body.redirectUri).catch((err: unknown) => {
        if (err instanceof GitProviderError && err.status >= 400 && err.status < 500) {
          throw new Validation(`${TYPE_NAMES[body.type]} did not accept the authorization code; connect the account again`, {
            code: ['The authorization code is invalid or has expired'],
          });
        }
        throw providerFailure(err, `Could not connect the ${TYPE_NAMES[body.type]} account`);
      });
      const user = await client.currentUser(tokens.accessToken).catch((err: unknown) => {
        throw providerFailure(err, `Could not read the ${TYPE_NAMES[body.type]} account`);
      });
      if (await store.byExternal(projectId, body.type, user.id)) throw new Conflict('Account already exists');
      try {
        const row = await store.insert({ projectId, type: body.type, accountName: user.name, externalId: user.id, createdBy: userId, ...sealTokens(tokens) });
        return { gitAccountId: row.id };
      } catch (err) {
        if (pgCode(err) === '23505') throw new Conflict('Account already exists');
        throw err;
      }
    },

    async remove(projectId: string, gitAccountId: string): Promise<void> {
      await accountOrThrow(projectId, gitAccountId);
      const pipelines = await usedByPipelines(gitAccountId);
      if (pipelines.length)
        throw new Conflict(
          `The Git account is used by ${pipelines.length === 1 ? 'the pipeline' : 'the pipelines'} ${pipelines.join(', ')}; remove ${pipelines.length === 1 ? 'it' : 'them'} first`,
          { pipelines },
        );
      try {
        await store.delete(projectId, gitAccountId);
      } catch (err) {
        // ON DELETE RESTRICT raises restrict_violation (23001); a NO ACTION key raises 23503.
        if (['23001', '23503'].includes(pgCode(err) ?? '')) throw new Conflict('The Git account is used by a pipeline; remove the pipeline first');
        throw err;
      }
      refreshes.delete(gitAccountId);
    },

    async repositories(projectId: string, gitAccountId: string): Promise<GitRepository[]> {
      const { client, token } = await clientFor(projectId, gitAccountId);
      return client.listRepositories(token).catch((err: unknown) => {
        throw providerFailure(err, 'Could not list the repositories');
      });
    },

    /** Branches of one of the account's repositories, named by its URL (or full name). */
    async branches(projectId: string, gitAccountId: string, repositoryUrl: string): Promise<string[]> {
      const { client, token } = await clientFor(projectId, gitAccountId);
      const repos = await client.listRepositories(token).catch((err: unknown) => {
        throw providerFailure(err, 'Could not list the repositories');
      });
      const wanted = norm(repositoryUrl);
      const repo = repos.find((r) => norm(r.url) === wanted || r.fullName.toLowerCase() === wanted);
      if (!repo) throw new NotFound('Repository not found in this Git account');
      return client.listBranches(token, repo.fullName).catch((err: unknown) => {
        throw providerFailure(err, 'Could not list the branches');
      });
    },

    /**
     * For pipelines and the build runner: the provider client and a fresh access token of a project's account.
     * Clone with `client.cloneUrl(repoUrl, token)`; read with getFile/getCommit; register hooks with createWebhook.
     */
    clientFor,
  };
}
export type GitAccountsService = ReturnType<typeof createGitAccountsService>;
