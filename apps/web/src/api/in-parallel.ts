/**
 * Runs `run` for every item, at most `limit` at a time, each started as soon as one before it ended. Resolves once
 * all have ended; when any failed, rejects with the first failure then (the others still ran to their end).
 */
export async function inParallel<T>(items: readonly T[], limit: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await run(item).catch((err: unknown) => void failures.push(err));
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
  if (failures.length) throw failures[0];
}
