#!/usr/bin/env node
// The one test command (`npm test`, called by .ci/run). On a fresh Debian machine it:
//   1. makes sure Debian's chromium, postgresql, git, bubblewrap, buildah, skopeo, docker-registry and busybox are there (root: apt-get installs them;
//      otherwise it stops and names them);
//   2. typechecks every workspace, then lints it (eslint.config.js: boundaries of DESIGN §3; prettier --check); 3. builds the web app;
//   4. runs Vitest over unit, API and integration tests on PGlite;
//   5. runs the database-touching test files again on a throwaway PostgreSQL server;
//   6. runs the end-to-end specs (real server + SMTP stand-in + headless Chromium);
//   7. prints a table per pass and, last, the line `N passed, N failed[, N skipped]`.
// Passes can be picked: `npm test -- unit e2e` (typecheck, lint, build, unit, postgres, e2e).
// A failed typecheck or build counts as one failed check in the closing line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const ALL_PASSES = ['typecheck', 'lint', 'build', 'unit', 'postgres', 'e2e'];
const picked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const p of picked) {
  if (!ALL_PASSES.includes(p)) {
    console.error(`unknown pass "${p}"; passes: ${ALL_PASSES.join(', ')}`);
    process.exit(2);
  }
}
const passes = new Set(picked.length ? picked : ALL_PASSES);
const resultsDir = path.join(root, '.test-results');

const started = Date.now();
const rows = []; // { pass, passed, failed, skipped, seconds, note }
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const seconds = (t0) => Math.round((Date.now() - t0) / 100) / 10;
const banner = (text) => console.log(`\n\x1b[1m=== ${text} ===\x1b[0m`);

function run(cmd, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (err) => {
      console.error(`${cmd}: ${err.message}`);
      resolve(127);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

// ---- 1. system packages -------------------------------------------------------------------

function findPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  return fs.readdirSync(base).find((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')));
}
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function ensureSystemPackages() {
  const needed = [];
  if (!fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) needed.push('chromium');
  if (!findPostgresBin()) needed.push('postgresql');
  if (!onPath('git')) needed.push('git');
  // builds and terraform runs execute in bubblewrap's sandbox (README "Security")
  if (!onPath('bwrap')) needed.push('bubblewrap');
  // each box gets a network of its own through passt's pasta (set up with iproute2's ip and util-linux's nsenter)
  if (!onPath('pasta')) needed.push('passt');
  if (!fs.existsSync('/usr/sbin/ip') && !fs.existsSync('/sbin/ip') && !fs.existsSync('/usr/bin/ip')) needed.push('iproute2');
  // docker-push builds with buildah; the registry tests run Distribution and check pushes with skopeo
  if (!onPath('buildah')) needed.push('buildah');
  if (!onPath('skopeo')) needed.push('skopeo');
  // the Kubernetes stand-in's answers are checked with kubectl
  if (!onPath('kubectl')) needed.push('kubernetes-client');
  if (!onPath('docker-registry')) needed.push('docker-registry');
  // the AWS stand-in's answers are checked with Debian's AWS CLI (not a pip one that may be on PATH)
  if (!fs.existsSync('/usr/bin/aws')) needed.push('awscli');
  if (!fs.existsSync('/bin/busybox') && !fs.existsSync('/usr/bin/busybox')) needed.push('busybox-static');
  if (!needed.length) return true;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.error(`\nMissing Debian packages: ${needed.join(', ')}.\nInstall them first: sudo apt-get install -y --no-install-recommends ${needed.join(' ')}`);
    return false;
  }
  banner(`installing ${needed.join(', ')} (apt-get)`);
  const extra = needed.includes('chromium') ? ['fonts-liberation'] : [];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...needed, ...extra], { stdio: 'inherit', env });
  if (update.status !== 0 || install.status !== 0) {
    console.error(`apt-get could not install ${needed.join(', ')}`);
    return false;
  }
  return true;
}

// ---- vitest passes ------------------------------------------------------------------------

/**
 * One Vitest pass. Files with a failure are run once more on their own: a test that fails only under the
 * whole pass's load is counted by its re-run but listed as flaky in the summary, so it is seen and mended.
 * A deterministic failure fails twice and stays failed.
 */
async function vitestPass(name, args, env = {}, files = []) {
  banner(`vitest: ${name}`);
  const t0 = Date.now();
  const first = await vitestRun(name, [...args, ...files], env);
  let outcome = first;
  const failedFiles = first.report ? failedFilesOf(first.report) : [];
  if (first.failed > 0 && failedFiles.length > 0 && failedFiles.length <= MAX_RERUN_FILES && first.reportCoversFailures) {
    banner(`vitest: ${name}, its ${failedFiles.length} file(s) with a failure once more`);
    const again = await vitestRun(`${name}-rerun`, [...args, ...failedFiles], env);
    if (again.report) outcome = merged(first.report, again.report, again.code);
    outcome.flaky = first.failures.filter((f) => !outcome.failures.includes(f));
  }
  const row = { pass: name, seconds: seconds(t0), note: '', flaky: [], ...outcome };
  if (row.flaky.length) row.note = [row.note, `${row.flaky.length} passed on a re-run`].filter(Boolean).join('; ');
  rows.push(row);
  return row;
}

/** Files whose re-run (at most this many) is worth it: more means a broken pass, not a flaky test. */
const MAX_RERUN_FILES = 3;

async function vitestRun(name, args, env) {
  const out = path.join(resultsDir, `${name}.json`);
  fs.rmSync(out, { force: true });
  const code = await run(bin('vitest'), ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${out}`], env);
  if (!fs.existsSync(out)) return { code, report: null, passed: 0, failed: 1, skipped: 0, note: 'no JSON report', failures: [] };
  const report = JSON.parse(fs.readFileSync(out, 'utf8'));
  return { ...countsOf(report.testResults ?? [], code), report };
}

/** Passed, failed and skipped of a report's files; a file failed outside its tests, or a failed exit, is one failed. */
function countsOf(fileResults, code) {
  const tests = fileResults.flatMap((f) => f.assertionResults ?? []);
  const counts = {
    code,
    passed: tests.filter((t) => t.status === 'passed').length,
    failed: tests.filter((t) => t.status === 'failed').length,
    skipped: tests.filter((t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'todo').length,
    note: '',
    failures: failuresOf({ testResults: fileResults }),
    reportCoversFailures: true,
  };
  const brokenFiles = fileResults.filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'));
  if (brokenFiles.length) {
    // A file that failed before any test ran (import error, failing hook) has no failed test of its own.
    counts.failed += brokenFiles.length;
    counts.note = `${brokenFiles.length} file(s) failed outside tests`;
  }
  if (counts.passed + counts.failed + counts.skipped === 0) {
    counts.failed += 1;
    counts.note = 'no test ran';
    counts.reportCoversFailures = false;
  }
  if (code !== 0 && counts.failed === 0) {
    counts.failed += 1;
    counts.note = `vitest exited with ${code} (unhandled error?)`;
    counts.reportCoversFailures = false;
  }
  return counts;
}

function failedFilesOf(report) {
  return (report.testResults ?? []).filter((f) => f.status === 'failed').map((f) => f.name);
}

/** The first run's files with those of the re-run in place of theirs. */
function merged(first, again, code) {
  const rerun = new Set((again.testResults ?? []).map((f) => f.name));
  const files = [...(first.testResults ?? []).filter((f) => !rerun.has(f.name)), ...(again.testResults ?? [])];
  return countsOf(files, code);
}

/** Each failed test (or file failed outside its tests) as "file › test: first line of the message". */
function failuresOf(report) {
  const firstLine = (m) =>
    String(m ?? '')
      .split('\n')
      .find((l) => l.trim()) ?? '';
  return (report.testResults ?? []).flatMap((f) => {
    const file = path.relative(root, f.name ?? '');
    const failed = (f.assertionResults ?? []).filter((a) => a.status === 'failed');
    if (!failed.length) return f.status === 'failed' ? [`${file}: ${firstLine(f.message)}`] : [];
    return failed.map((a) => `${file} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
  });
}

/** Test files that open a database (the server's test helper or the database module). */
function databaseTestFiles() {
  const files = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (
        entry.name.endsWith('.test.ts') &&
        /test\/helpers|openTestDatabase|createTestApp|TEST_DATABASE_URL|platform\/db/.test(fs.readFileSync(p, 'utf8'))
      ) {
        files.push(path.relative(root, p));
      }
    }
  };
  walk('apps/server');
  walk('packages');
  return files.sort();
}

// ---- the run --------------------------------------------------------------------------------

let pg;
const stopPostgres = () => {
  try {
    pg?.stop();
  } catch (err) {
    console.error(`stopping PostgreSQL: ${err.message}`);
  }
  pg = undefined;
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopPostgres();
    process.exit(130);
  });
}

/** Prints the tests of every pass under `title` (a row's `key`: its failures or its flaky tests), if any. */
function listTests(title, key) {
  const tests = rows.flatMap((r) => (r[key] ?? []).map((f) => `  ${r.pass}: ${f}`.slice(0, 400)));
  if (tests.length) console.log(`${title}:\n${tests.join('\n')}`);
}

function finish() {
  const total = rows.reduce((a, r) => ({ passed: a.passed + r.passed, failed: a.failed + r.failed, skipped: a.skipped + r.skipped }), {
    passed: 0,
    failed: 0,
    skipped: 0,
  });
  banner(`summary (${Math.round((Date.now() - started) / 1000)} s)`);
  const w = Math.max(...rows.map((r) => r.pass.length), 4);
  console.log(`${'pass'.padEnd(w)}  passed  failed  skipped  seconds  note`);
  for (const r of rows) {
    console.log(
      `${r.pass.padEnd(w)}  ${String(r.passed).padStart(6)}  ${String(r.failed).padStart(6)}  ${String(r.skipped).padStart(7)}  ${String(r.seconds).padStart(7)}  ${r.note}`,
    );
  }
  console.log(`JSON reports: ${path.relative(root, resultsDir)}/`);
  // The CI keeps only the log's tail: name what failed here, above the closing line.
  listTests('failed', 'failures');
  listTests('flaky (failed, then passed on a re-run of its file)', 'flaky');
  console.log(`${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exit(total.failed > 0 ? 1 : 0);
}

if (!ensureSystemPackages()) {
  rows.push({ pass: 'system packages', passed: 0, failed: 1, skipped: 0, seconds: seconds(started), note: 'missing Debian packages' });
  finish();
}
fs.rmSync(resultsDir, { recursive: true, force: true });
fs.mkdirSync(resultsDir, { recursive: true });

if (passes.has('typecheck')) {
  banner('typecheck');
  const t0 = Date.now();
  const code = await run('npm', ['run', 'typecheck']);
  rows.push({
    pass: 'typecheck',
    passed: 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    seconds: seconds(t0),
    note: code === 0 ? 'ok' : 'tsc reported errors (counted as 1 failed)',
  });
}

if (passes.has('lint')) {
  banner('lint (eslint: types, hooks, boundaries; prettier: format)');
  const t0 = Date.now();
  const code = await run('npm', ['run', 'lint']);
  rows.push({
    pass: 'lint',
    passed: 0,
    failed: code === 0 ? 0 : 1,
    skipped: 0,
    seconds: seconds(t0),
    note: code === 0 ? 'ok' : 'eslint or prettier reported problems (counted as 1 failed; npm run format fixes the formatting)',
  });
}

let webBuilt = fs.existsSync('apps/web/dist/index.html') && !passes.has('build');
if (passes.has('build')) {
  banner('build web app');
  const t0 = Date.now();
  const code = await run('npm', ['run', 'build', '-w', '@gantry/web']);
  webBuilt = code === 0;
  rows.push({
    pass: 'build',
    passed: 0,
    failed: webBuilt ? 0 : 1,
    skipped: 0,
    seconds: seconds(t0),
    note: webBuilt ? 'ok' : 'vite build failed (counted as 1 failed)',
  });
}

if (passes.has('unit')) {
  await vitestPass('unit', ['--project', '!e2e']);
}

if (passes.has('postgres')) {
  const files = databaseTestFiles();
  if (!files.length) {
    rows.push({ pass: 'postgres', passed: 0, failed: 0, skipped: 0, seconds: 0, note: 'no database test files' });
  } else {
    banner('PostgreSQL: starting a throwaway server');
    const t0 = Date.now();
    try {
      const { tsImport } = await import('tsx/esm/api');
      const { startPostgres } = await tsImport(pathToFileURL(path.join(root, 'test-support/src/postgres.ts')).href, import.meta.url);
      pg = await startPostgres();
      console.log(`PostgreSQL ${pg.version} at ${pg.url} (data ${pg.dataDir})`);
    } catch (err) {
      console.error(err);
      rows.push({ pass: 'postgres', passed: 0, failed: 1, skipped: 0, seconds: seconds(t0), note: 'PostgreSQL did not start' });
    }
    if (pg) {
      await vitestPass('postgres', ['--project', '!e2e'], { TEST_DATABASE_URL: pg.url }, files);
      stopPostgres();
    }
  }
}

if (passes.has('e2e')) {
  if (!webBuilt) {
    rows.push({ pass: 'e2e', passed: 0, failed: 1, skipped: 0, seconds: 0, note: 'not run: the web app is not built' });
  } else {
    await vitestPass('e2e', ['--project', 'e2e']);
  }
}

finish();
