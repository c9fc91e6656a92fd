/** GitHub OAuth sign-in: code → access token → the user's id and verified primary e-mail. */
export interface GithubIdentity {
  authorizeUrl(): string;
  identify(code: string): Promise<{ id: string; email: string; firstName: string; lastName: string }>;
}

export function createGithubIdentity(o: { clientId: string; clientSecret: string; oauthUrl: string; apiUrl: string }): GithubIdentity {
  const oauth = o.oauthUrl.replace(/\/$/, '');
  const api = o.apiUrl.replace(/\/$/, '');
  return {
    authorizeUrl: () =>
      `${oauth}/login/oauth/authorize?client_id=${encodeURIComponent(o.clientId)}&scope=${encodeURIComponent('read:user user:email')}&state=login`,
    async identify(code) {
      const tokenRes = await fetch(`${oauth}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: o.clientId, client_secret: o.clientSecret, code }),
      });
      const token = (await tokenRes.json().catch(() => ({}))) as { access_token?: string; error_description?: string };
      if (!token.access_token) throw new Error(token.error_description ?? 'GitHub did not accept the sign-in code');
      const headers = { authorization: `Bearer ${token.access_token}`, accept: 'application/vnd.github+json' };
      const user = (await (await fetch(`${api}/user`, { headers })).json()) as { id: number; name?: string; login: string };
      const emails = (await (await fetch(`${api}/user/emails`, { headers })).json()) as { email: string; primary: boolean; verified: boolean }[];
      const primary = Array.isArray(emails) ? (emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified)) : undefined;
      if (!user?.id || !primary) throw new Error('Your GitHub account has no verified e-mail address');
      const [firstName, ...rest] = (user.name ?? user.login).split(' ');
      return { id: String(user.id), email: primary.email.toLowerCase(), firstName: firstName ?? user.login, lastName: rest.join(' ') };
    },
  };
}
