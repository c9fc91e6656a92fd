import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SignUpBody,
  ActivateBody,
  LoginBody,
  GithubLoginBody,
  ForgotPasswordBody,
  ConfirmForgotPasswordBody,
  SetPasswordBody,
  RefreshBody,
  RefreshAnswer,
  LoginAnswer,
  Profile,
  UpdateProfileBody,
  ChangePasswordBody,
  OkBody,
  OutboxMail,
} from '@gantry/contracts';
import { bearerFrom } from '../../platform/tokens.js';
import { currentUser, type Guards } from '../../platform/auth.js';
import { Forbidden } from '../../platform/errors.js';
import { safeEqual } from '../../platform/secrets.js';
import type { UsersService } from './users.service.js';
import { AccountLocked } from './login-throttle.js';
import type { Mailer } from '../../platform/mail.js';

const ok = { ok: true as const };
/** Brute-force brakes on the credential routes (per client address). */
const strict = { rateLimit: { max: 10, timeWindow: '1 minute' } };

export function usersRoutes(deps: {
  users: UsersService;
  guards: Guards;
  mailer: Mailer;
  githubAuthorizeUrl: string | null;
  outboxKey: string;
}): FastifyPluginAsyncZod {
  const { users, guards } = deps;
  return async (app) => {
    const tags = ['usermanagement'];
    app.post('/auth/sign-up', { config: strict, schema: { tags, body: SignUpBody, response: { 201: OkBody } } }, async (req, reply) => {
      await users.signUp(req.body);
      return reply.status(201).send(ok);
    });
    app.post('/auth/activate', { config: strict, schema: { tags, body: ActivateBody, response: { 200: OkBody } } }, async (req) => {
      await users.activate(req.body.username, req.body.code);
      return ok;
    });
    app.post('/auth/login', { config: strict, schema: { tags, body: LoginBody, response: { 200: LoginAnswer } } }, async (req, reply) => {
      try {
        return await users.login(req.body.username, req.body.password);
      } catch (err) {
        if (err instanceof AccountLocked) reply.header('retry-after', String(err.retryAfterSeconds));
        throw err;
      }
    });
    app.post('/auth/login/github', { config: strict, schema: { tags, body: GithubLoginBody, response: { 200: LoginAnswer } } }, (req) =>
      users.loginWithGithub(req.body.code),
    );
    app.get('/auth/providers', { schema: { tags, response: { 200: z.object({ github: z.object({ authorizeUrl: z.string() }).nullable() }) } } }, async () => ({
      github: deps.githubAuthorizeUrl ? { authorizeUrl: deps.githubAuthorizeUrl } : null,
    }));
    app.post('/auth/forgot-password', { config: strict, schema: { tags, body: ForgotPasswordBody, response: { 200: OkBody } } }, async (req) => {
      await users.forgotPassword(req.body.username);
      return ok;
    });
    app.post('/auth/confirm-forgot-password', { config: strict, schema: { tags, body: ConfirmForgotPasswordBody, response: { 200: OkBody } } }, async (req) => {
      await users.confirmForgotPassword(req.body);
      return ok;
    });
    app.post('/auth/set-password', { config: strict, schema: { tags, body: SetPasswordBody, response: { 200: LoginAnswer } } }, (req) =>
      users.setPassword(req.body),
    );
    app.post(
      '/auth/refresh',
      { config: { rateLimit: { max: 60, timeWindow: '1 minute' } }, schema: { tags, body: RefreshBody, response: { 200: RefreshAnswer } } },
      (req) => users.refresh(req.body.refreshToken, bearerFrom(req.headers.authorization)),
    );
    app.post('/auth/logout', { schema: { tags, body: RefreshBody, response: { 200: OkBody } } }, async (req) => {
      await users.logout(req.body.refreshToken);
      return ok;
    });

    app.get('/users/me', { preHandler: guards.authenticate, schema: { tags, response: { 200: Profile } } }, (req) => users.me(currentUser(req).id));
    app.put('/users/me', { preHandler: guards.authenticate, schema: { tags, body: UpdateProfileBody, response: { 200: Profile } } }, (req) =>
      users.updateMe(currentUser(req).id, req.body),
    );
    app.post(
      '/users/me/password',
      { config: strict, preHandler: guards.authenticate, schema: { tags, body: ChangePasswordBody, response: { 200: RefreshAnswer } } },
      (req) => users.changePassword(currentUser(req).id, req.body),
    );

    // The instance outbox: an instance admin, or whoever holds the key printed in the server log at start.
    app.get(
      '/outbox',
      { schema: { tags, querystring: z.object({ key: z.string().optional() }), response: { 200: z.object({ mails: z.array(OutboxMail) }) } } },
      async (req) => {
        if (!req.query.key || !safeEqual(req.query.key, deps.outboxKey)) {
          await guards.authenticate(req);
          const me = await users.me(currentUser(req).id);
          if (!me.isInstanceAdmin) throw new Forbidden('Only an instance admin can read the outbox');
        }
        return { mails: await deps.mailer.outbox() };
      },
    );
  };
}
