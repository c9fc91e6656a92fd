/** A minimal browser for node tests: localStorage, window.location and a scriptable fetch. */
export function installFakeBrowser() {
  const store = new Map<string, string>();
  const localStorage = {
    getItem: (k: string) => (store.has(k) ? store.get(k)! : null),
    setItem: (k: string, v: string) => void store.set(k, String(v)),
    removeItem: (k: string) => void store.delete(k),
    clear: () => store.clear(),
    key: (i: number) => [...store.keys()][i] ?? null,
    get length() {
      return store.size;
    },
  };
  const assigned: string[] = [];
  const location = {
    origin: 'http://portal.test',
    pathname: '/overview',
    assign: (url: string) => void assigned.push(url),
    reload: () => undefined,
  };
  const window = { location, addEventListener: () => undefined, localStorage };
  Object.assign(globalThis, { window, localStorage });
  return { store, assigned, location };
}

export interface FakeCall {
  method: string;
  url: string;
  auth: string | null;
  body: unknown;
}

type FakeAnswer = { status: number; body?: unknown; headers?: Record<string, string> };
export type Responder = (call: FakeCall) => FakeAnswer | Promise<FakeAnswer>;

export function installFakeFetch(responder: Responder) {
  const calls: FakeCall[] = [];
  globalThis.fetch = (async (input: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>;
    const call: FakeCall = {
      method: init.method ?? 'GET',
      url: String(input),
      auth: headers.Authorization ?? null,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const { status, body, headers: extra } = await responder(call);
    return new Response(body === undefined ? '' : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...extra } });
  }) as typeof fetch;
  return calls;
}
