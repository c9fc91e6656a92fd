/**
 * The JavaScript a browser downloads before a page is usable, gzip-compressed (issue 14 budget:
 * ≤ 250 KB for /login and for /projects). Real Gantry serving the built SPA, real Chromium: every
 * script response of a cold load is counted once, at gzip level 9 of its bytes in apps/web/dist.
 *   npx tsx bench/web-bundle.ts   (needs apps/web/dist: npm run build -w @gantry/web)
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { freePort, startSmtp } from '@gantry/test-support';
import { startBenchGantry } from './src/bench-gantry.js';
import { fmt, isMain, table } from './src/load.js';
import { BENCH_PASSWORD, benchUser } from './src/bench-user.js';

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');
const CHROMIUM_ARGS = [
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

export interface PageWeight {
  page: string;
  scripts: number;
  gzipBytes: number;
  rawBytes: number;
  largest: { file: string; gzipBytes: number }[];
}

const gzipSize = (file: string) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** Loads `route` in a fresh page of `page`'s context and weighs the scripts it fetched from /assets. */
async function weigh(page: Page, route: string, ready: (p: Page) => Promise<unknown>): Promise<PageWeight> {
  const scripts = new Set<string>();
  page.on('response', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/assets/') && u.pathname.endsWith('.js')) scripts.add(u.pathname);
  });
  await page.goto(route);
  await ready(page);
  await page.waitForLoadState('networkidle');
  const sizes = [...scripts].map((p) => ({
    file: path.basename(p),
    gzipBytes: gzipSize(path.join(webDist, p)),
    rawBytes: fs.statSync(path.join(webDist, p)).size,
  }));
  return {
    page: route,
    scripts: sizes.length,
    gzipBytes: sizes.reduce((n, s) => n + s.gzipBytes, 0),
    rawBytes: sizes.reduce((n, s) => n + s.rawBytes, 0),
    largest: sizes
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .slice(0, Number(process.env.BENCH_LARGEST ?? 4))
      .map(({ file, gzipBytes }) => ({ file, gzipBytes })),
  };
}

export async function benchWebBundle(): Promise<PageWeight[]> {
  if (!fs.existsSync(path.join(webDist, 'index.html'))) throw new Error('apps/web/dist is missing: npm run build -w @gantry/web');
  const smtp = await startSmtp();
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const gantry = await startBenchGantry('web', {
    PORT: String(port),
    PUBLIC_URL: url,
    SMTP_URL: smtp.url,
    GANTRY_WEB_DIST: webDist,
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, headless: true });
  try {
    const { email } = await benchUser(url, smtp, 'bench-web');

    const context = await browser.newContext({ baseURL: url });
    const login = await weigh(await context.newPage(), '/login', (p) => p.getByRole('button', { name: 'Log In' }).waitFor());
    // sign in through the form, then a cold load of /projects in a new page of the same session
    const first = context.pages()[0]!;
    await first.getByLabel('Username').fill(email);
    await first.getByLabel('Password', { exact: true }).fill(BENCH_PASSWORD);
    await first.getByRole('button', { name: 'Log In' }).click();
    await first.waitForURL('**/projects');
    const projects = await weigh(await context.newPage(), '/projects', (p) => p.waitForURL('**/projects'));
    return [login, projects];
  } finally {
    await browser.close();
    await gantry.close();
    await smtp.close();
  }
}

export function printWebBundle(rows: PageWeight[]) {
  table(
    rows.map((r) => ({
      page: r.page,
      scripts: r.scripts,
      'JS gzip KB': fmt(r.gzipBytes / 1024, 1),
      'JS raw KB': fmt(r.rawBytes / 1024, 1),
      budget: r.gzipBytes <= 250 * 1024 ? 'within 250 KB' : 'OVER 250 KB',
      largest: r.largest.map((l) => `${l.file} ${fmt(l.gzipBytes / 1024, 0)}`).join(', '),
    })),
  );
}

if (isMain(import.meta.url)) {
  benchWebBundle().then(printWebBundle, (err) => {
    console.error(err);
    process.exit(1);
  });
}
