import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in of the Stripe API for the calls Gantry makes, in Stripe's wire format: form-encoded
 * bodies with bracketed keys, bearer secret key, JSON objects with `object` and `id`, errors as
 * `{ error: { type, message } }`. Serves `POST /v1/checkout/sessions` (its `url` points at a hosted
 * checkout page of this stand-in) and `POST /v1/subscriptions/:id`. `complete(sessionId)` pays a
 * session the way Stripe would and answers the events Stripe would then send (unsigned; a test signs
 * them with the SDK's `webhooks.generateTestHeaderString`).
 */
export async function startStripeStandin(o: { secretKey: string }) {
  const sessions = new Map<string, Record<string, any>>();
  const subscriptions = new Map<string, Record<string, any>>();
  const requests: { method: string; path: string; params: Record<string, any> }[] = [];
  const now = () => Math.floor(Date.now() / 1000);
  const id = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('hex')}`;
  let base = '';

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const send = (status: number, value: unknown, type = 'application/json') => {
        res.writeHead(status, { 'content-type': type, 'request-id': id('req') });
        res.end(typeof value === 'string' ? value : JSON.stringify(value));
      };
      const fail = (status: number, type: string, message: string) => send(status, { error: { type, message } });

      const page = url.pathname.match(/^\/pay\/(cs_test_\w+)$/);
      if (req.method === 'GET' && page) {
        const s = sessions.get(page[1]!);
        if (!s) return send(404, 'No such checkout session', 'text/plain');
        const item = s.line_items[0];
        return send(200, checkoutPage(item.price_data.product_data.name, item.price_data.unit_amount, item.price_data.currency, s.cancel_url), 'text/html');
      }

      if (req.headers.authorization !== `Bearer ${o.secretKey}`) return fail(401, 'invalid_request_error', 'Invalid API Key provided');
      const params = parseForm(body);
      requests.push({ method: req.method ?? '', path: url.pathname, params });

      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        for (const key of ['mode', 'success_url', 'line_items']) if (!params[key]) return fail(400, 'invalid_request_error', `Missing required param: ${key}.`);
        const sid = id('cs_test');
        const session = {
          id: sid,
          object: 'checkout.session',
          mode: params.mode,
          status: 'open',
          payment_status: 'unpaid',
          client_reference_id: params.client_reference_id ?? null,
          customer: null,
          customer_email: params.customer_email ?? null,
          metadata: params.metadata ?? {},
          line_items: Object.values(params.line_items),
          subscription_data: params.subscription_data ?? {},
          success_url: params.success_url,
          cancel_url: params.cancel_url ?? null,
          amount_total: (Object.values(params.line_items) as any[]).reduce((sum, li) => sum + Number(li.price_data.unit_amount) * Number(li.quantity ?? 1), 0),
          currency: (Object.values(params.line_items) as any[])[0].price_data.currency,
          subscription: null,
          payment_intent: null,
          created: now(),
          url: `${base}/pay/${sid}`,
        };
        sessions.set(sid, session);
        return send(200, session);
      }

      const subUpdate = url.pathname.match(/^\/v1\/subscriptions\/(sub_\w+)$/);
      if (req.method === 'POST' && subUpdate) {
        const sub = subscriptions.get(subUpdate[1]!);
        if (!sub) return fail(404, 'invalid_request_error', `No such subscription: '${subUpdate[1]}'`);
        if (params.cancel_at_period_end !== undefined) {
          sub.cancel_at_period_end = params.cancel_at_period_end === 'true';
          sub.cancel_at = sub.cancel_at_period_end ? sub.items.data[0].current_period_end : null;
        }
        return send(200, sub);
      }
      return fail(404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, object: unknown) => ({
    id: id('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  });

  return {
    url: base,
    requests,
    sessions,
    subscriptions,
    /** The customer pays session `sessionId`: answers the events Stripe sends, in its order. */
    complete(sessionId: string) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no checkout session ${sessionId}`);
      const customer = id('cus');
      Object.assign(s, { status: 'complete', payment_status: 'paid', customer });
      if (s.mode === 'payment') {
        s.payment_intent = id('pi');
        return [event('checkout.session.completed', s)];
      }
      const item = s.line_items[0];
      const start = now();
      const end = start + (item.price_data.recurring.interval === 'year' ? 365 : 30) * 86_400;
      const sub = {
        id: id('sub'),
        object: 'subscription',
        customer,
        status: 'active',
        cancel_at_period_end: false,
        cancel_at: null,
        canceled_at: null,
        ended_at: null,
        created: start,
        start_date: start,
        metadata: s.subscription_data.metadata ?? {},
        items: { object: 'list', data: [{ id: id('si'), object: 'subscription_item', current_period_start: start, current_period_end: end, quantity: 1 }] },
      };
      subscriptions.set(sub.id, sub);
      s.subscription = sub.id;
      const invoice = {
        id: id('in'),
        object: 'invoice',
        customer,
        status: 'paid',
        amount_paid: s.amount_total,
        currency: s.currency,
        created: start,
        status_transitions: { paid_at: start },
        parent: { type: 'subscription_details', subscription_details: { subscription: sub.id, metadata: sub.metadata } },
      };
      return [event('customer.subscription.created', sub), event('checkout.session.completed', s), event('invoice.paid', invoice)];
    },
    /** Events of a subscription's change (`customer.subscription.updated`) or end (`.deleted`). */
    subscriptionEvent(subscriptionId: string, type: 'customer.subscription.updated' | 'customer.subscription.deleted') {
      const sub = subscriptions.get(subscriptionId);
      if (!sub) throw new Error(`no subscription ${subscriptionId}`);
      if (type === 'customer.subscription.deleted') Object.assign(sub, { status: 'canceled', canceled_at: now(), ended_at: now() });
      return event(type, sub);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type StripeStandin = Awaited<ReturnType<typeof startStripeStandin>>;

/** Stripe's form encoding: `a[b][0][c]=v` → `{ a: { b: { 0: { c: 'v' } } } }` (arrays stay index-keyed objects). */
export function parseForm(body: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node = out;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) node[part] = value;
      else node = node[part] ??= {};
    }
  }
  return out;
}

const checkoutPage = (name: string, amount: string, currency: string, cancelUrl: string | null) => `<!doctype html>
<html><head><title>Checkout (Stripe stand-in)</title></head>
<body style="font-family: sans-serif; max-width: 32rem; margin: 4rem auto">
  <h1>Stripe Checkout stand-in</h1>
  <p data-testid="checkout-item">${escape(name)}: ${(Number(amount) / 100).toFixed(2)} ${escape(currency.toUpperCase())}</p>
  ${cancelUrl ? `<a href="${escape(cancelUrl)}">Back</a>` : ''}
</body></html>`;

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
