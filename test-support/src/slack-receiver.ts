import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One message the Slack receiver accepted (a POST answered 200). */
export interface SlackReceived {
  path: string;
  text: string;
  body: unknown;
  receivedAt: Date;
}

export interface SlackReceiver {
  /** http://127.0.0.1:PORT/services/T000/B000/XXXX — an incoming webhook URL in Slack's shape. */
  webhookUrl: string;
  /** Accepted messages, oldest first. */
  messages: SlackReceived[];
  /** Every POST, answered or refused, in order: status and when. */
  attempts: { status: number; at: Date }[];
  /** The next `count` POSTs are answered 429 with `Retry-After: seconds`, as Slack does under its rate limit. */
  rateLimitNext(count: number, seconds: number): void;
  /** The next `count` POSTs are answered 500. */
  failNext(count: number): void;
  /** The first accepted message (already here or arriving later) that matches; rejects after timeoutMs. */
  waitFor(match: (m: SlackReceived) => boolean, timeoutMs?: number): Promise<SlackReceived>;
  close(): Promise<void>;
}

/**
 * A local stand-in for Slack's incoming webhooks: POST JSON `{ text }` to the hook's path; answers `ok`
 * (200, text/plain), `invalid_payload` (400) without a text, `no_service` (404) on another path, and on
 * demand 429 with Retry-After or 500.
 */
export async function startSlackReceiver(): Promise<SlackReceiver> {
  const hookPath = '/services/T0GANTRY/B0GANTRY/' + Math.random().toString(36).slice(2, 14);
  const messages: SlackReceived[] = [];
  const attempts: { status: number; at: Date }[] = [];
  const waiters: { match: (m: SlackReceived) => boolean; resolve: (m: SlackReceived) => void }[] = [];
  let rateLimited = 0;
  let retryAfter = 1;
  let failing = 0;

  const answer = (res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    attempts.push({ status, at: new Date() });
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(text);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== hookPath) return answer(res, 404, 'no_service');
      if (rateLimited > 0) {
        rateLimited--;
        return answer(res, 429, 'rate_limited', { 'retry-after': String(retryAfter) });
      }
      if (failing > 0) {
        failing--;
        return answer(res, 500, 'internal_error');
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return answer(res, 400, 'invalid_payload');
      }
      const text = (body as { text?: unknown })?.text;
      if (typeof text !== 'string' || !text) return answer(res, 400, 'no_text');
      const m: SlackReceived = { path: req.url, text, body, receivedAt: new Date() };
      messages.push(m);
      answer(res, 200, 'ok');
      for (const w of [...waiters]) {
        if (w.match(m)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    webhookUrl: `http://127.0.0.1:${port}${hookPath}`,
    messages,
    attempts,
    rateLimitNext(count, seconds) {
      rateLimited = count;
      retryAfter = seconds;
    },
    failNext(count) {
      failing = count;
    },
    waitFor(match, timeoutMs = 60_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (m: SlackReceived) => (clearTimeout(timer), resolve(m)) };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(waiter), 1);
          reject(new Error(`no matching Slack message within ${timeoutMs} ms; received: ${JSON.stringify(messages.map((x) => x.text))}`));
        }, timeoutMs);
        waiters.push(waiter);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
