/**
 * A PGlite data dir with the migrations applied, made once at build time (issue 14): a fresh data dir,
 * or a test's in-memory database, starts as a copy of it instead of running PGlite's initdb (5–20 s).
 * The migrations still run afterwards, so a template older than the migrations is only slower, never
 * wrong. One is used only if its PGlite version is this one and the migrations it holds are the first
 * ones of the current list (same hashes); otherwise the database is made from scratch as before.
 *
 * Kept in apps/server/.db-template/<key>/ (never committed): the data dir as one gzipped tar (PGlite's
 * own dump, ~5 MB; the data dir itself is ~40 MB, mostly empty pages), with meta.json. Built by
 * `npm start`'s build step and the test set-up. A process unpacks it once: PGlite loads the tar into
 * an in-memory database, and a new data dir is written from it (data-dir-tar.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { extractTar } from './data-dir-tar.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const migrationsFolder = path.resolve(here, '../../migrations');
export const templatesRoot = path.resolve(here, '../../.db-template');

interface Meta {
  pglite: string;
  /** The hashes of the migrations applied in the template, in order. */
  migrations: string[];
}

export interface DbTemplate {
  dir: string;
  meta: Meta;
  /** The data dir as one gzipped tar (PGlite's dumpDataDir). */
  tarGz: string;
}

/** Named in the key: a template of another layout (pgdata/ and pgdata.tar before) is never taken for this one. */
const LAYOUT = 'tar.gz';
const TAR_GZ = 'pgdata.tar.gz';

function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = path.dirname(entry);
  while (!fs.existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
}

const currentByFolder = new Map<string, Meta>();

/** This PGlite and the hashes of the migrations in a folder: read once per process (every database open asks). */
function current(folder: string): Meta {
  let meta = currentByFolder.get(folder);
  if (!meta) {
    meta = { pglite: pgliteVersion(), migrations: readMigrationFiles({ migrationsFolder: folder }).map((m) => m.hash) };
    currentByFolder.set(folder, meta);
  }
  return meta;
}

const keyOf = (meta: Meta) =>
  crypto
    .createHash('sha256')
    .update(JSON.stringify({ ...meta, layout: LAYOUT }))
    .digest('hex')
    .slice(0, 16);

function readTemplate(dir: string): DbTemplate | undefined {
  try {
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8')) as Meta;
    const tarGz = path.join(dir, TAR_GZ);
    return fs.existsSync(tarGz) ? { dir, meta, tarGz } : undefined;
  } catch {
    return undefined;
  }
}

/** The usable template holding the most of the current migrations, if any. */
export function findTemplate(opts: { root?: string; migrations?: string } = {}): DbTemplate | undefined {
  const root = opts.root ?? templatesRoot;
  if (!fs.existsSync(root)) return undefined;
  const want = current(opts.migrations ?? migrationsFolder);
  let best: DbTemplate | undefined;
  for (const name of fs.readdirSync(root)) {
    if (name.startsWith('.')) continue; // one being built
    const t = readTemplate(path.join(root, name));
    if (!t || t.meta.pglite !== want.pglite || t.meta.migrations.length > want.migrations.length) continue;
    if (!t.meta.migrations.every((h, i) => h === want.migrations[i])) continue;
    if (!best || t.meta.migrations.length > best.meta.migrations.length) best = t;
  }
  return best;
}

/**
 * Makes the template of the current migrations unless it exists; other templates are removed.
 * Built beside under a dot name and renamed into place, so a reader never sees half a template
 * and two builders at once both end well.
 */
export async function ensureTemplate(opts: { root?: string; migrations?: string; log?: (line: string) => void } = {}): Promise<DbTemplate> {
  const root = opts.root ?? templatesRoot;
  const folder = opts.migrations ?? migrationsFolder;
  const meta = current(folder);
  const dir = path.join(root, keyOf(meta));
  const existing = readTemplate(dir);
  if (existing) return existing;
  const t0 = Date.now();
  const building = path.join(root, `.building-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  fs.mkdirSync(building, { recursive: true });
  // loaded only to build: `npm start` checks the template before the server listens
  const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  try {
    const client = await PGlite.create({});
    try {
      await migrate(drizzle({ client }), { migrationsFolder: folder });
      const tar = await client.dumpDataDir('none');
      fs.writeFileSync(path.join(building, TAR_GZ), zlib.gzipSync(new Uint8Array(await tar.arrayBuffer())));
    } finally {
      await client.close();
    }
    fs.writeFileSync(path.join(building, 'meta.json'), JSON.stringify(meta));
    try {
      fs.renameSync(building, dir);
    } catch (err) {
      if (!readTemplate(dir)) throw err; // else another builder got there first
    }
  } finally {
    fs.rmSync(building, { recursive: true, force: true });
  }
  for (const name of fs.readdirSync(root)) {
    if (name !== path.basename(dir) && !name.startsWith('.')) fs.rmSync(path.join(root, name), { recursive: true, force: true });
  }
  opts.log?.(`database template: ${meta.migrations.length} migrations applied in ${Date.now() - t0} ms`);
  return readTemplate(dir)!;
}

const templateTar = (template: DbTemplate) => new Uint8Array(zlib.gunzipSync(fs.readFileSync(template.tarGz)));

/**
 * A new (empty) PGlite data dir becomes a copy of the template: written beside it and renamed, so a
 * start stopped half-way leaves no half data dir. Answers whether it did; on any failure the dir is
 * left empty and PGlite makes the database itself.
 */
export function seedDataDir(dir: string, find: () => DbTemplate | null | undefined = findTemplate): boolean {
  if (fs.readdirSync(dir).length > 0) return false;
  const template = find();
  if (!template) return false;
  const copy = `${dir}.seeding-${process.pid}`;
  try {
    fs.rmSync(copy, { recursive: true, force: true });
    extractTar(templateTar(template), copy);
    fs.rmdirSync(dir);
    fs.renameSync(copy, dir);
    return true;
  } catch {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    return false;
  }
}

const blobs = new Map<string, Blob>();

/** The template as PGlite's loadDataDir takes it, for an in-memory database; unzipped once per process (a test file opens many). */
export function templateBlob(template: DbTemplate | undefined): Blob | undefined {
  if (!template) return undefined;
  let blob = blobs.get(template.tarGz);
  if (!blob) {
    try {
      blob = new Blob([templateTar(template)], { type: 'application/x-tar' });
    } catch {
      return undefined;
    }
    blobs.set(template.tarGz, blob);
  }
  return blob;
}
