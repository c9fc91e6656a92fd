import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from './config.js';
import { startGantry } from './server.js';

/** A stop that has not ended by then (runs get 10 s, sockets, queue and database a few more) exits anyway. */
const STOP_DEADLINE_MS = 30_000;

let stopServer: ((why: string, exitCode: number) => void) | undefined;
let log: Pick<FastifyBaseLogger, 'fatal' | 'error' | 'warn' | 'info'> | undefined;

/**
 * An error nobody handled is a bug: it is logged with its stack, and the server stops the ordinary
 * way (runs end as interrupted, logs stored) and exits non-zero, instead of dying half-way.
 */
function fatal(kind: string) {
  return (err: unknown) => {
    if (log) log.fatal({ err }, `${kind}: ${err instanceof Error ? err.message : String(err)}`);
    else console.error(`[gantry] ${kind}:`, err);
    if (stopServer) stopServer(kind, 1);
    else process.exit(1);
  };
}
process.on('unhandledRejection', fatal('unhandled promise rejection'));
process.on('uncaughtException', fatal('uncaught exception'));

/** SIGTERM/SIGINT stop the server in order (app.ts); the same signal again exits at once. */
function stopOnSignals(close: () => Promise<void>) {
  let stopping = false;
  stopServer = (why, exitCode) => {
    if (stopping) {
      log?.warn(`${why} while stopping: exiting at once`);
      process.exit(exitCode || 130);
    }
    stopping = true;
    log?.info(`${why}: stopping; running builds and deployments end as interrupted`);
    setTimeout(() => {
      log?.error(`the stop did not end within ${STOP_DEADLINE_MS / 1000} s; exiting`);
      process.exit(1);
    }, STOP_DEADLINE_MS).unref();
    close().then(
      () => process.exit(exitCode),
      (err) => {
        log?.error({ err }, 'the stop failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopServer!(signal, 0));
}

/** gantry [serve|worker|migrate|promo-codes|plans] — default: everything in one process. */
async function main(argv: string[]) {
  const [command = 'all', ...rest] = argv;
  if (command === 'migrate' || command === 'promo-codes' || command === 'plans') {
    const config = loadConfig();
    // imported here: a server start loads them after it listens (server.ts)
    const [{ openDatabase }, { createBillingService }, { createBillingStore }, { plansCommand }] = await Promise.all([
      import('./platform/db.js'),
      import('./modules/billing/billing.service.js'),
      import('./modules/billing/billing.store.js'),
      import('./plans-command.js'),
    ]);
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
    if (command === 'promo-codes') {
      const flag = (name: string, dflt: string) => {
        const i = rest.indexOf(`--${name}`);
        return i >= 0 ? rest[i + 1]! : dflt;
      };
      const billing = createBillingService({ store: createBillingStore(database.db) });
      await billing.ensurePlans();
      const codes = await billing.createPromoCodes({
        kind: flag('kind', 'PROMO').toUpperCase() as 'PROMO' | 'APPSUMO',
        planId: flag('plan', 'PRO').toUpperCase(),
        count: Number(flag('count', '1')),
        days: Number(flag('days', '365')),
      });
      console.log(codes.join('\n'));
    } else if (command === 'plans') {
      console.log(await plansCommand(database.db, rest));
    } else {
      console.log('migrations applied');
    }
    await database.close();
    return;
  }
  const role = command === 'serve' ? 'api' : command === 'worker' ? 'worker' : 'all';
  const started = Date.now();
  const gantry = await startGantry({ GANTRY_ROLE: role });
  const { url, app, config } = gantry;
  log = app.log;
  stopOnSignals(gantry.close);
  const shown = config.PUBLIC_URL ?? url;
  app.log.info(`Gantry (${role}) on ${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.dataDir}`} ready in ${Date.now() - started} ms`);
  if (!config.SMTP_URL && role !== 'worker') app.log.info(`No SMTP_URL: mails go to the outbox at ${shown}/outbox?key=${app.services.outboxKey}`);
  console.log(
    role === 'worker' ? '\n  Gantry worker is taking jobs\n' : `\n  Gantry is running at ${shown}\n${gantry.portFallback ? `  ${gantry.portFallback}\n` : ''}`,
  );
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
