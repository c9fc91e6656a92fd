import fs from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { findPostgresBin, startPostgres } from './postgres.js';

describe.skipIf(!findPostgresBin())('throwaway PostgreSQL', () => {
  it('starts on a free loopback port with a password over TCP, answers queries, and is gone after stop', async () => {
    const server = await startPostgres();
    try {
      expect(server.url).toMatch(new RegExp(`^postgres://postgres:[0-9a-f]{24}@127\\.0\\.0\\.1:${server.port}/postgres$`));
      // without the password the server refuses: a build step on this machine's loopback gets nothing
      const anonymous = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${server.port}/postgres` });
      await expect(anonymous.connect()).rejects.toThrow(/password/);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      const { rows } = await client.query('select current_user as who, current_setting($1) as fsync', ['fsync']);
      expect(rows[0]).toEqual({ who: 'postgres', fsync: 'off' });
      await client.query('create database gantry_probe');
      await client.end();
    } finally {
      server.stop();
    }
    expect(fs.existsSync(server.dataDir)).toBe(false);
    const late = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 2_000 });
    await expect(late.connect()).rejects.toThrow();
  }, 60_000);
});
