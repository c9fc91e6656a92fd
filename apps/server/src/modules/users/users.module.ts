import { defineModule } from '../../platform/module.js';
import { createGithubIdentity } from '../../integrations/github/github-identity.js';
import { createUsersStore } from './users.store.js';
import { createUsersService } from './users.service.js';
import { usersRoutes } from './users.routes.js';

/** Sign-up, login, tokens and profiles; answers the platform's tokensValidAfter. */
export const usersModule = defineModule({
  name: 'users',
  create(platform) {
    const { config } = platform;
    const store = createUsersStore(platform.db, platform.database.cache);
    platform.hooks.tokensValidAfter.answer(store.tokensValidAfter);
    const github =
      config.GITHUB_CLIENT_ID && config.GITHUB_CLIENT_SECRET
        ? createGithubIdentity({
            clientId: config.GITHUB_CLIENT_ID,
            clientSecret: config.GITHUB_CLIENT_SECRET,
            oauthUrl: config.GITHUB_OAUTH_URL,
            apiUrl: config.GITHUB_API_URL,
          })
        : null;
    const users = createUsersService({
      db: platform.db,
      store,
      mailer: platform.mailer,
      idTokens: platform.idTokens,
      baseUrl: platform.baseUrl,
      github,
      refreshSuccessorKey: platform.deriveKey('refresh-successor'),
      tokensEnded: (userId) => platform.realtime.disconnectUser(userId),
    });
    return {
      api: users,
      routes: [
        {
          prefix: '/ms-usermanagement',
          plugin: usersRoutes({
            users,
            guards: platform.guards,
            mailer: platform.mailer,
            githubAuthorizeUrl: github?.authorizeUrl() ?? null,
            outboxKey: platform.outboxKey,
          }),
        },
      ],
    };
  },
});
