import { loadConfig } from './config.js';
import { startGantry } from './server.js';
import { openDatabase } from './platform/db.js';
import { createBillingService } from './modules/billing/billing.service.js';
import { createBillingStore } from './modules/billing/billing.store.js';

/** gantry [serve|worker|migrate|promo-codes] — default: everything in one process. */
async function main(argv: string[]) {
  const [command = 'all', ...rest] = argv;
  if (command === 'migrate' || command === 'promo-codes') {
    const config = loadConfig();
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
    if (command === 'promo-codes') {
      const flag = (name: string, dflt: string) => { const i = rest.indexOf(`--${name}`); return i >= 0 ? rest[i + 1]! : dflt; };
      const billing = createBillingService({ store: createBillingStore(database.db) });
      await billing.ensurePlans();
      const codes = await billing.createPromoCodes({
        kind: flag('kind', 'PROMO').toUpperCase() as 'PROMO' | 'APPSUMO', planId: flag('plan', 'PRO').toUpperCase(),
        count: Number(flag('count', '1')), days: Number(flag('days', '365')),
      });
      console.log(codes.join('\n'));
    } else {
      console.log('migrations applied');
    }
    await database.close();
    return;
  }
  const role = command === 'serve' ? 'api' : command === 'worker' ? 'worker' : 'all';
  const started = Date.now();
  const gantry = await startGantry({ GANTRY_ROLE: role, ...(role === 'worker' && !process.env.PORT ? { PORT: '0', HOST: '127.0.0.1' } : {}) });
  const { url, app, config } = gantry;
  const shown = config.PUBLIC_URL ?? url;
  app.log.info(`Gantry (${role}) on ${config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.dataDir}`} ready in ${Date.now() - started} ms`);
  if (!config.SMTP_URL && role !== 'worker') app.log.info(`No SMTP_URL: mails go to the outbox at ${shown}/outbox?key=${app.services.outboxKey}`);
  console.log(`\n  Gantry is running at ${shown}\n`);
  const stop = async () => {
    await gantry.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
