import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchAfterWrite } from './refetch-after-write';

/** A list whose first read is answered (with what it read before the write) only when `answerFirst` is called. */
function listLoading() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const rows: string[] = [];
  let answerFirst = () => {};
  let reads = 0;
  const queryFn = () => {
    reads += 1;
    const read = [...rows];
    if (reads > 1) return Promise.resolve(read);
    return new Promise<string[]>((resolve) => (answerFirst = () => resolve(read)));
  };
  const observer = new QueryObserver(qc, { queryKey: ['accounts', 'p1', 'list'], queryFn });
  const unsubscribe = observer.subscribe(() => {});
  return {
    qc,
    observer,
    write: (row: string) => rows.push(row),
    answerFirst: () => answerFirst(),
    reads: () => reads,
    settled: () => new Promise((r) => setTimeout(r, 0)),
    unsubscribe,
  };
}

describe('refetchAfterWrite', () => {
  it('reads again after a write that lands while the first read is still loading', async () => {
    const list = listLoading();
    list.write('octocat');
    const refetched = refetchAfterWrite(list.qc, ['accounts', 'p1']);
    list.answerFirst();
    await refetched;
    await list.settled();
    expect(list.observer.getCurrentResult().data).toEqual(['octocat']);
    expect(list.reads()).toBe(2);
    list.unsubscribe();
  });

  it('is needed: invalidateQueries alone keeps the first read, taken before the write', async () => {
    const list = listLoading();
    list.write('octocat');
    const invalidated = list.qc.invalidateQueries({ queryKey: ['accounts', 'p1'] });
    list.answerFirst();
    await invalidated;
    await list.settled();
    expect(list.observer.getCurrentResult().data).toEqual([]);
    expect(list.reads()).toBe(1);
    list.unsubscribe();
  });
});
