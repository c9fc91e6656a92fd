import type { FastifyBaseLogger } from 'fastify';

/** How long stopping the server waits for the builds and deployments it runs to end. */
export const STOP_RUNS_WITHIN_MS = 10_000;

/** Waits for `work` to settle, but no longer than `ms`; answers whether it settled in time. Never rejects. */
export async function settledWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown> | unknown;
  /** Past this the next step starts anyway (the step is left to finish on its own). */
  withinMs?: number;
}

/**
 * Runs the steps of a shutdown one after the other. A step that fails or hangs is logged and the
 * next one still runs: a stop must always reach the database, and must never reject half-way.
 */
export async function runShutdownSteps(log: FastifyBaseLogger, steps: ShutdownStep[]) {
  for (const step of steps) {
    const work = Promise.resolve().then(step.run);
    work.catch((err) => log.error({ err }, `shutdown: ${step.name} failed`));
    if (!(await settledWithin(work, step.withinMs ?? 15_000))) log.warn(`shutdown: ${step.name} did not end within ${step.withinMs ?? 15_000} ms; going on`);
  }
}
