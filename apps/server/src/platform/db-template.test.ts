import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './db.js';
import { ensureTemplate, findTemplate, migrationsFolder, seedDataDir, templateBlob, type DbTemplate } from './db-template.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-db-template-'));
const root = path.join(tmp, 'templates');

/** A migrations folder holding only the first `count` migrations of the real one (a template built before the rest existed). */
function olderMigrations(count: number) {
  const dir = path.join(tmp, `migrations-${count}`);
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.slice(0, count);
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}

/** Tables, columns, indexes, constraints and applied migrations: what a database's schema is, in a comparable form. */
async function schemaOf(database: Database) {
  const rows = async (text: string) => (await database.db.execute(sql.raw(text))).rows;
  const ours = `not in ('pg_catalog', 'information_schema', 'pg_toast')`;
  return {
    columns: await rows(
      `select table_schema, table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
        where table_schema ${ours} order by 1, 2, 3`,
    ),
    indexes: await rows(`select schemaname, tablename, indexdef from pg_indexes where schemaname ${ours} order by 1, 2, 3`),
    constraints: await rows(
      `select n.nspname, c.conname, pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_namespace n on n.oid = c.connamespace
        where n.nspname ${ours} order by 1, 2, 3`,
    ),
    migrations: await rows(`select hash, created_at from drizzle.__drizzle_migrations order by id`),
  };
}

async function schemaOpened(opts: Parameters<typeof openDatabase>[0]) {
  const database = await openDatabase(opts);
  try {
    return await schemaOf(database);
  } finally {
    await database.close();
  }
}

let older: DbTemplate;
let scratch: Awaited<ReturnType<typeof schemaOf>>;

beforeAll(async () => {
  older = await ensureTemplate({ root, migrations: olderMigrations(3) });
  scratch = await schemaOpened({ template: null });
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('the database template', () => {
  it('a database made from scratch has every migration', () => {
    const count = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')).entries.length;
    expect(scratch.migrations).toHaveLength(count);
    expect(scratch.columns.length).toBeGreaterThan(50);
  });

  it('a template built from older migrations is used, and the database it starts ends up current: the same schema as from scratch', async () => {
    expect(older.meta.migrations).toHaveLength(3);
    expect(findTemplate({ root })?.dir).toBe(older.dir);
    const dataDir = path.join(tmp, 'data-older');
    expect(await schemaOpened({ dataDir, template: older })).toEqual(scratch);
    expect(await schemaOpened({ template: older })).toEqual(scratch); // in memory
  });

  it('the template of the current migrations replaces the older one; a fresh data dir and an in-memory database from it have the same schema as from scratch', async () => {
    const current = await ensureTemplate({ root });
    expect(current.meta.migrations).toHaveLength(scratch.migrations.length);
    expect(fs.existsSync(older.dir)).toBe(false);
    expect(findTemplate({ root })?.dir).toBe(current.dir);

    const dataDir = path.join(tmp, 'data-current');
    expect(await schemaOpened({ dataDir, template: current })).toEqual(scratch);
    expect(fs.existsSync(path.join(dataDir, 'pglite/PG_VERSION'))).toBe(true);
    // again on the data dir it left: opened as it is
    expect(await schemaOpened({ dataDir, template: current })).toEqual(scratch);
    expect(await schemaOpened({ template: current })).toEqual(scratch);
  });

  it('is not used when a migration it holds differs from the current one, nor to fill a data dir that has files', () => {
    const otherRoot = path.join(tmp, 'other');
    fs.mkdirSync(otherRoot);
    const template = findTemplate({ root })!;
    fs.cpSync(template.dir, path.join(otherRoot, 'edited'), { recursive: true });
    const meta = JSON.parse(fs.readFileSync(path.join(otherRoot, 'edited/meta.json'), 'utf8'));
    meta.migrations[1] = 'not-the-hash-of-the-current-migration';
    fs.writeFileSync(path.join(otherRoot, 'edited/meta.json'), JSON.stringify(meta));
    expect(findTemplate({ root: otherRoot })).toBeUndefined();
    meta.migrations = template.meta.migrations;
    meta.pglite = '0.0.1';
    fs.writeFileSync(path.join(otherRoot, 'edited/meta.json'), JSON.stringify(meta));
    expect(findTemplate({ root: otherRoot })).toBeUndefined();

    const used = path.join(tmp, 'used');
    fs.mkdirSync(used);
    fs.writeFileSync(path.join(used, 'a-file'), '');
    expect(seedDataDir(used, () => template)).toBe(false);
    expect(fs.readdirSync(used)).toEqual(['a-file']);
  });

  it('holds the data dir in one form only, a gzipped tar, and a process unzips it once for its in-memory databases', () => {
    const template = findTemplate({ root })!;
    expect(fs.readdirSync(template.dir).sort()).toEqual(['meta.json', 'pgdata.tar.gz']);
    expect(fs.statSync(template.tarGz).size).toBeLessThan(20 * 1024 * 1024);
    expect(templateBlob(template)).toBe(templateBlob(template));
  });

  it('a fresh data dir is written from the tar beside it and renamed into place', () => {
    const dir = path.join(tmp, 'seeded');
    fs.mkdirSync(dir);
    expect(seedDataDir(dir, () => findTemplate({ root }))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    expect(fs.readdirSync(path.join(dir, 'base')).length).toBeGreaterThan(0);
    expect(fs.readdirSync(tmp).filter((n) => n.includes('.seeding-'))).toEqual([]);
  });

  it('a damaged template leaves a new data dir empty (PGlite makes it) and nothing half-written beside it', () => {
    const template = findTemplate({ root })!;
    const damagedRoot = path.join(tmp, 'damaged');
    fs.cpSync(template.dir, path.join(damagedRoot, 'cut'), { recursive: true });
    const cut = path.join(damagedRoot, 'cut/pgdata.tar.gz');
    const gz = fs.readFileSync(cut);
    fs.writeFileSync(cut, gz.subarray(0, gz.length / 2));
    const damaged = findTemplate({ root: damagedRoot })!;
    expect(damaged.dir).toBe(path.join(damagedRoot, 'cut'));

    const dir = path.join(tmp, 'from-damaged');
    fs.mkdirSync(dir);
    expect(seedDataDir(dir, () => damaged)).toBe(false);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(fs.readdirSync(tmp).filter((n) => n.includes('.seeding-'))).toEqual([]);
    expect(templateBlob(damaged)).toBeUndefined();
  });

  it('a template of the earlier layout (a pgdata/ dir and an uncompressed tar) is not taken for one, and is removed by the next build', async () => {
    const layoutRoot = path.join(tmp, 'earlier-layout');
    const template = findTemplate({ root })!;
    const earlier = path.join(layoutRoot, 'c7c63391c2d0cff7');
    fs.mkdirSync(path.join(earlier, 'pgdata'), { recursive: true });
    fs.copyFileSync(path.join(template.dir, 'meta.json'), path.join(earlier, 'meta.json'));
    fs.writeFileSync(path.join(earlier, 'pgdata.tar'), '');
    expect(findTemplate({ root: layoutRoot })).toBeUndefined();
    const built = await ensureTemplate({ root: layoutRoot });
    expect(fs.readdirSync(layoutRoot)).toEqual([path.basename(built.dir)]);
  });
});
