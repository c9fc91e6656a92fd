import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startGantry } from '../../apps/server/src/server.js';

export type BenchGantry = Awaited<ReturnType<typeof startGantry>> & { dataDir: string };

/**
 * A real Gantry in this process on a temporary data dir: PGlite unless `DATABASE_URL` is given, mail
 * kept in the outbox unless `SMTP_URL` is, quiet logs (BENCH_LOG), no rate limit. Closing it removes the data dir.
 */
export async function startBenchGantry(name: string, env: Partial<Record<string, string>> = {}): Promise<BenchGantry> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `gantry-bench-${name}-`));
  const removeDataDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  try {
    const gantry = await startGantry({
      PORT: '0',
      HOST: '127.0.0.1',
      GANTRY_DATA_DIR: dataDir,
      GANTRY_LOG_LEVEL: process.env.BENCH_LOG ?? 'warn',
      GANTRY_RATE_LIMIT: 'false',
      DATABASE_URL: '',
      SMTP_URL: '',
      ...env,
    });
    const close = gantry.close.bind(gantry);
    return Object.assign(gantry, {
      dataDir,
      close: async () => {
        await close();
        removeDataDir();
      },
    });
  } catch (err) {
    removeDataDir();
    throw err;
  }
}
