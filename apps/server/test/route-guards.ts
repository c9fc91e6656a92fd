import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FeatureLimitation } from '@gantry/contracts';
import { bearer, type TestApp } from './helpers.js';

export type GuardedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** A project route and a body it would accept (the guards answer before the body counts, but it must parse). */
export interface GuardedRoute {
  method: GuardedMethod;
  url: string;
  payload?: object;
  /** Needs 'change': a read member gets 403. */
  change?: boolean;
}

const inject = (t: TestApp, r: GuardedRoute, idToken?: string) =>
  t.app.inject({ method: r.method, url: r.url, headers: idToken ? bearer(idToken) : {}, payload: r.payload });

/**
 * The guard checks every project route shares: a read member may not change (403), a member of another project sees
 * nothing (404, as if it did not exist) and no session is 401.
 */
export async function expectProjectGuards(t: TestApp, routes: GuardedRoute[], who: { reader: string; outsider: string }) {
  for (const r of routes) {
    const what = `${r.method} ${r.url}`;
    if (r.change) expect((await inject(t, r, who.reader)).statusCode, `${what} as a read member`).toBe(403);
    expect((await inject(t, r, who.outsider)).statusCode, `${what} from another project`).toBe(404);
    expect((await inject(t, r)).statusCode, `${what} without a session`).toBe(401);
  }
}

/** Runs `fn` while the STARTER plan lacks `feature` (a project on it gets 402), and gives the feature back after. */
export async function withoutFeature(t: TestApp, feature: FeatureLimitation, fn: () => Promise<void>) {
  const set = (on: boolean) =>
    t.app.services.database.db.execute(
      sql`update payment_plans set limitations = jsonb_set(limitations, ${`{${feature}}`}::text[], ${on ? 'true' : 'false'}::jsonb) where id = 'STARTER'`,
    );
  await set(false);
  try {
    await fn();
  } finally {
    await set(true);
  }
}

/** Each route answers 402 with the plan's PlanLimit while its feature is off. */
export async function expectPlanGated(t: TestApp, feature: FeatureLimitation, routes: GuardedRoute[], idToken: string) {
  await withoutFeature(t, feature, async () => {
    for (const r of routes) {
      const res = await inject(t, r, idToken);
      expect(res.statusCode, `${r.method} ${r.url} without ${feature}`).toBe(402);
      expect(res.json().code).toBe('PlanLimit');
    }
  });
}

/**
 * Every project route the OpenAPI document lists under `tags` is among `routes` (a route matches its concrete URL), so
 * a route added to a module later cannot go without the guard checks above. `except`: paths guarded otherwise.
 */
export async function expectEveryProjectRouteListed(t: TestApp, tags: string[], routes: GuardedRoute[], except?: RegExp) {
  const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, { tags?: string[] }>>;
  };
  const missing: string[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    if (!path.includes('{projectId}') || except?.test(path)) continue;
    const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);
    for (const [method, op] of Object.entries(operations)) {
      if (!op.tags?.some((tag) => tags.includes(tag))) continue;
      if (!routes.some((r) => r.method === method.toUpperCase() && pattern.test(r.url))) missing.push(`${method.toUpperCase()} ${path}`);
    }
  }
  expect(missing, 'project routes without guard checks').toEqual([]);
}

/** Every one of `paths` is in the OpenAPI document (/docs/json). */
export async function expectDocumented(t: TestApp, paths: string[]) {
  const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, unknown> };
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(paths));
}
