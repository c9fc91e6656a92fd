import { describe, it, expect } from 'vitest';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { registerErrorHandler } from './errors.js';

/** A Fastify app with the error handler whose log lines are kept, and a route that throws `error`. */
async function appThrowing(error: Error) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream } });
  registerErrorHandler(app);
  app.get('/boom', async () => {
    throw error;
  });
  await app.ready();
  return { app, lines };
}

/** What drizzle throws when PostgreSQL refuses a query: the SQL and every bound value in the message. */
function failedQuery() {
  const driver = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
    code: '22021',
    severity: 'ERROR',
    detail: 'Key (email)=(victim@example.com) already exists.',
  });
  return new DrizzleQueryError('insert into "users" ("email", "password_hash") values ($1, $2)', ['victim@example.com', '$argon2id$secret-hash'], driver);
}

describe('error handler', () => {
  it('answers a failed database query with a plain 500 and logs neither the SQL nor its bound values', async () => {
    const { app, lines } = await appThrowing(failedQuery());
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Something went wrong!', code: 500 });
    const log = lines.join('');
    expect(log).toContain('22021'); // the SQLSTATE is kept: enough to tell what went wrong
    for (const leak of ['insert into', 'victim@example.com', 'argon2id', 'params', 'Failed query', 'Key (email)']) expect(log).not.toContain(leak);
    await app.close();
  });

  it('still logs an ordinary unhandled error with its message', async () => {
    const { app, lines } = await appThrowing(new Error('disk full'));
    expect((await app.inject({ method: 'GET', url: '/boom' })).statusCode).toBe(500);
    expect(lines.join('')).toContain('disk full');
    await app.close();
  });
});
