import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, type TestContext } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import pg from 'pg';
import { freePort, linkFromMail, startSmtp, type Mail, type SmtpStandIn } from '@gantry/test-support';
import { PRO_PLAN_ID } from '@gantry/contracts';
import { startGantry } from '../../apps/server/src/server.js';

export { extractLinks, linkFromMail, pathOf, type Mail } from '@gantry/test-support';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
export const webDist = path.join(repoRoot, 'apps/web/dist');
export const artifactsDir = path.join(repoRoot, 'e2e/.artifacts');

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** A whole running Gantry: server (API + workers + built SPA) on a temp data dir, the SMTP stand-in, and Chromium. */
export interface Stack {
  /** http://127.0.0.1:PORT — the SPA and the API. */
  url: string;
  smtp: SmtpStandIn;
  dataDir: string;
  browser: Browser;
  /**
   * A fresh browser context (own localStorage and cookies) with one page, relative URLs against the
   * stack. Closed after the current test, or with keep: true at the end of the describe/file
   * (for a flow that spans several tests).
   */
  newPage(options?: { keep?: boolean }): Promise<Page>;
  /** The JSON answer of an API call (throws with the body on a non-2xx status). */
  api<T = any>(method: string, apiPath: string, body?: unknown, idToken?: string): Promise<T>;
  /** New promo codes of the Professional plan, as `gantry promo-codes --kind …` prints them (PROMO: Billing's Redeem; APPSUMO: /appsumo). */
  promoCodes(kind: 'PROMO' | 'APPSUMO', count?: number): Promise<string[]>;
  close(): Promise<void>;
}

/** A browser console error a spec expects (matched against '<path>: <text>'), and why it is expected. */
export interface ExpectedConsoleError {
  match: RegExp;
  why: string;
}

export interface StackOptions {
  /** Extra environment-style settings for the server (e.g. GANTRY_ID_TOKEN_TTL_SECONDS). */
  env?: Record<string, string>;
  /**
   * The console guard of a screen's main flow: given (an empty list when nothing is expected), every console error or
   * uncaught page error of a test's pages fails the test (useStack's afterEach), but those listed here, which the
   * spec's flows provoke on purpose (a refused login, a form the server refuses), each with its reason.
   */
  expectedConsoleErrors?: ExpectedConsoleError[];
}

interface InternalStack extends Stack {
  contexts: Map<BrowserContext, { keep: boolean }>;
  /** Content-Security-Policy refusals the browser reported since the last test ended */
  cspViolations: string[];
  /** Console errors and uncaught errors of the pages since the last test ended, as '<path>: <text>' */
  consoleErrors: string[];
}

/**
 * The stack's database: PGlite in its data dir (an empty URL), or — with GANTRY_E2E_DATABASE_URL, a PostgreSQL
 * server's URL — a new database on that server, dropped with the stack. Every stack starts on an empty database,
 * as on PGlite: its first account is the instance admin, and its job queue is its own.
 */
async function stackDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const serverUrl = process.env.GANTRY_E2E_DATABASE_URL;
  if (!serverUrl) return { url: '', drop: async () => {} };
  const name = `gantry_e2e_${crypto.randomBytes(6).toString('hex')}`;
  const onServer = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await onServer(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(`drop database if exists ${name} with (force)`) };
}

/** Starts the stack; the caller closes it. Prefer useStack() in a spec file. */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  return startInternal(options);
}

async function startInternal(options: StackOptions): Promise<InternalStack> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error(`the web app is not built (${webDist}/index.html is missing): run npm run build -w @gantry/web`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-e2e-'));
  const database = await stackDatabase();
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let gantry: Awaited<ReturnType<typeof startGantry>> | undefined;
  let browser: Browser | undefined;
  try {
    gantry = await startGantry({
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      GANTRY_DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      GANTRY_WEB_DIST: webDist,
      GANTRY_LOG_LEVEL: process.env.GANTRY_E2E_LOG_LEVEL ?? 'warn',
      GANTRY_RATE_LIMIT: 'false',
      // the specs' registries listen on 127.0.0.1, which the default OUTBOUND_NETWORK (lan) refuses
      OUTBOUND_NETWORK: 'any',
      // PGlite in the data dir unless told otherwise (an inherited DATABASE_URL must not leak in).
      DATABASE_URL: database.url,
      ...options.env,
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  } catch (err) {
    await browser?.close().catch(() => {});
    await gantry?.close().catch(() => {});
    await smtp.close();
    await database.drop().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }

  const contexts = new Map<BrowserContext, { keep: boolean }>();
  const cspViolations: string[] = [];
  const consoleErrors: string[] = [];
  const b = browser;
  const g = gantry;
  const stack: InternalStack = {
    url,
    smtp,
    dataDir,
    browser: b,
    contexts,
    cspViolations,
    consoleErrors,
    async newPage(opts = {}) {
      const context = await b.newContext({ baseURL: url, viewport: { width: 1366, height: 900 } });
      context.setDefaultTimeout(20_000);
      context.setDefaultNavigationTimeout(30_000);
      contexts.set(context, { keep: Boolean(opts.keep) });
      context.on('close', () => contexts.delete(context));
      const page = await context.newPage();
      const log: string[] = [];
      (page as Page & { _e2eLog?: string[] })._e2eLog = log;
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') log.push(`[console.${m.type()}] ${m.text()}`);
        if (m.text().includes('Content Security Policy') && page.url().startsWith(url)) cspViolations.push(`${page.url()}: ${m.text()}`);
        // a refused request's line names no address: its resource's path (and query) is added
        const resource = m.location().url.startsWith(url) ? ` (${m.location().url.slice(url.length)})` : '';
        if (m.type() === 'error' && page.url().startsWith(url)) consoleErrors.push(`${new URL(page.url()).pathname}: ${m.text()}${resource}`);
      });
      page.on('pageerror', (e) => {
        log.push(`[pageerror] ${e.message}`);
        consoleErrors.push(`${page.url().startsWith(url) ? new URL(page.url()).pathname : page.url()}: uncaught ${e.message}`);
      });
      page.on('requestfailed', (r) => log.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
      page.on('response', (r) => {
        if (r.status() >= 400) log.push(`[http ${r.status()}] ${r.request().method()} ${r.url()}`);
      });
      return page;
    },
    async api(method, apiPath, body, idToken) {
      const res = await fetch(new URL(apiPath, url), {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${method} ${apiPath} answered ${res.status}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    promoCodes: (kind, count = 1) => g.app.services.billing.createPromoCodes({ kind, planId: PRO_PLAN_ID, count }),
    async close() {
      for (const c of [...contexts.keys()]) await c.close().catch(() => {});
      await b.close().catch(() => {});
      await g.close();
      await smtp.close();
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return stack;
}

/**
 * Registers beforeAll/afterAll (one stack per describe or file) and afterEach: on a failed test a
 * full-page screenshot of every open page goes to e2e/.artifacts/ with the page's console and
 * network errors beside it; then the test's own browser contexts (not the kept ones) are closed.
 * The returned object is usable inside tests and hooks (it is filled in by beforeAll).
 */
export function useStack(options: StackOptions = {}): Stack {
  let current: InternalStack | undefined;
  const need = () => {
    if (!current) throw new Error('the stack is not started (use it inside a test or hook)');
    return current;
  };
  beforeAll(async () => {
    current = await startInternal(options);
  });
  afterEach(async (ctx: TestContext) => {
    if (!current) return;
    if (ctx.task.result?.state === 'fail') await saveFailureArtifacts(ctx, [...current.contexts.keys()]);
    for (const [c, { keep }] of [...current.contexts]) if (!keep) await c.close().catch(() => {});
    // the server's Content-Security-Policy must not break a screen: a refused script, style or request fails the test
    const refused = current.cspViolations.splice(0);
    if (refused.length) throw new Error(`the page broke Gantry's Content-Security-Policy:\n${refused.join('\n')}`);
    // a screen's flow logs no console error but those its spec expects (each with its reason)
    const expected = options.expectedConsoleErrors;
    const unexpected = current.consoleErrors.splice(0).filter((e) => expected && !expected.some((x) => x.match.test(e)));
    if (unexpected.length && ctx.task.result?.state !== 'fail') throw new Error(`the browser's console logged errors:\n${unexpected.join('\n')}`);
  });
  afterAll(async () => {
    await current?.close();
  });
  return {
    get url() {
      return need().url;
    },
    get smtp() {
      return need().smtp;
    },
    get dataDir() {
      return need().dataDir;
    },
    get browser() {
      return need().browser;
    },
    newPage: (opts) => need().newPage(opts),
    api: (...args) => need().api(...args),
    promoCodes: (...args) => need().promoCodes(...args),
    close: () => need().close(),
  };
}

async function saveFailureArtifacts(ctx: TestContext, contexts: BrowserContext[]) {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const base = `${path.basename(ctx.task.file?.name ?? 'e2e')}-${ctx.task.name}`.replace(/[^a-z0-9._-]+/gi, '_').slice(0, 120);
  let n = 0;
  for (const context of contexts) {
    for (const page of context.pages()) {
      n += 1;
      const file = path.join(artifactsDir, `${base}-${n}`);
      try {
        await page.screenshot({ path: `${file}.png`, fullPage: true, timeout: 10_000 });
      } catch (err) {
        fs.writeFileSync(`${file}.screenshot-error.txt`, String(err));
      }
      const log = (page as Page & { _e2eLog?: string[] })._e2eLog ?? [];
      fs.writeFileSync(`${file}.log`, [`url: ${page.url()}`, ...log].join('\n') + '\n');
      console.error(`e2e: failure artifacts ${path.relative(repoRoot, file)}.png / .log (page at ${page.url()})`);
    }
  }
}

/** The temporary password of an invitation mail ("… this temporary password: XXXX"). */
export function temporaryPasswordFrom(mail: Mail): string {
  const m = mail.text.match(/temporary password:?\s*(\S+)/i);
  if (!m) throw new Error(`no temporary password in mail "${mail.subject}":\n${mail.text}`);
  return m[1].replace(/[.,;]$/, '');
}

/** The claims of a JWT (no verification: only to read exp/iat in a test). */
export function jwtClaims(token: string): { exp?: number; iat?: number; [k: string]: unknown } {
  const payload = token.split('.')[1];
  if (!payload) throw new Error(`not a JWT: ${token.slice(0, 20)}…`);
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
}

/** Resolves once the clock is past a token's expiry (plus a margin), so the server must refuse it as expired. */
export async function waitUntilExpired(token: string, marginMs = 1_100): Promise<void> {
  const { exp } = jwtClaims(token);
  if (!exp) throw new Error('the token has no exp claim');
  const ms = exp * 1000 + marginMs - Date.now();
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
}

export async function localStorageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/** A verified user made through the API (sign-up, the mailed code, activation); answers an id token. */
export async function verifiedUser(stack: Stack, user: { email: string; password: string; firstName: string; lastName: string }): Promise<string> {
  await stack.api('POST', '/ms-usermanagement/auth/sign-up', {
    username: user.email,
    password: user.password,
    firstName: user.firstName,
    lastName: user.lastName,
  });
  const code = decodeURIComponent(
    linkFromMail(await stack.smtp.waitFor(user.email), '/account/verify/')
      .split('/')
      .pop()!,
  );
  await stack.api('POST', '/ms-usermanagement/auth/activate', { username: user.email, code });
  return (await stack.api('POST', '/ms-usermanagement/auth/login', { username: user.email, password: user.password })).idToken;
}

/** Logs in on /login and opens a project from /projects, as a person would. */
export async function logInAndOpenProject(page: Page, email: string, password: string, projectName: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL('**/projects');
  await page.getByRole('button', { name: `Open project ${projectName}` }).click();
  await page.waitForURL('**/overview');
}

/** The instance admin (the first account) puts a project on a plan, e.g. 'PRO' for Slack and the Cloud Waste Manager. */
export async function setProjectPlan(stack: Stack, adminToken: string, projectId: string, planId: string): Promise<void> {
  await stack.api('PUT', `/ms-project/admin/projects/${projectId}/plan`, { planId }, adminToken);
}
