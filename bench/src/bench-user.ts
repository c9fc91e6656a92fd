import { linkFromMail, type SmtpStandIn } from '@gantry/test-support';

export const BENCH_PASSWORD = 'Bench1234';

/** POSTs JSON to a running Gantry and answers its JSON, or throws with the call and its answer. */
export async function postJson(baseUrl: string, p: string, body: unknown, token?: string) {
  const res = await fetch(baseUrl + p, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${p} answered ${res.status}: ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A user signed up and verified through the mail the SMTP stand-in got, then logged in: their e-mail and id token. */
export async function benchUser(baseUrl: string, smtp: SmtpStandIn, prefix: string) {
  const email = `${prefix}-${Date.now()}-${process.pid}@example.com`;
  await postJson(baseUrl, '/ms-usermanagement/auth/sign-up', { username: email, password: BENCH_PASSWORD, firstName: 'Bench', lastName: 'Mark' });
  const code = decodeURIComponent(
    linkFromMail(await smtp.waitFor(email), '/account/verify/')
      .split('/')
      .pop()!,
  );
  await postJson(baseUrl, '/ms-usermanagement/auth/activate', { username: email, code });
  const { idToken } = (await postJson(baseUrl, '/ms-usermanagement/auth/login', { username: email, password: BENCH_PASSWORD })) as { idToken: string };
  return { email, idToken };
}
