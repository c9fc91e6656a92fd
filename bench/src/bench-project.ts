/** The JSON answer of a call to a running Gantry, or an error naming the call and its answer. */
export type Call = (method: string, url: string, body?: unknown, token?: string) => Promise<any>;

export function apiCaller(baseUrl: string): Call {
  return async (method, url, body, token) => {
    const res = await fetch(baseUrl + url, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : method === 'POST' ? '{}' : undefined,
    });
    const json = (await res.json()) as any;
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** A verified bench user (the code read from the instance outbox) and a project of theirs. */
export async function benchProject(call: Call, outbox: () => Promise<{ text: string }[]>): Promise<{ idToken: string; projectId: string }> {
  await call('POST', '/ms-usermanagement/auth/sign-up', { username: 'bench@example.com', password: 'Bench1234', firstName: 'B', lastName: 'B' });
  const mail = (await outbox())[0]!;
  const code = decodeURIComponent(
    mail.text
      .match(/\/account\/verify\/\S+/)![0]
      .split('/')
      .pop()!,
  );
  await call('POST', '/ms-usermanagement/auth/activate', { username: 'bench@example.com', code });
  const { idToken } = await call('POST', '/ms-usermanagement/auth/login', { username: 'bench@example.com', password: 'Bench1234' });
  const { id: projectId } = await call('POST', '/ms-project/projects', { name: 'Bench', description: 'bench' }, idToken);
  return { idToken, projectId };
}
