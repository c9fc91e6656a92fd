import { describe, it, expect } from 'vitest';
import { markAllRead, MARK_ALL_READ_AT_ONCE } from './mark-all-read';

/** A server that answers each request when told, recording what it was asked and how many were open at once. */
function slowServer() {
  const asked: string[] = [];
  const open: (() => void)[] = [];
  let most = 0;
  const put = (url: string) =>
    new Promise<void>((resolve, reject) => {
      asked.push(url);
      open.push(() => (url.includes('/broken/') ? reject(new Error(`refused ${url}`)) : resolve()));
      most = Math.max(most, open.length);
    });
  // a turn first: requests may leave a few microtasks after the call (p-map starts each mapper once its item is taken)
  const answerAll = async () => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 0));
      if (!open.length) return;
      for (const answer of open.splice(0)) answer();
    }
  };
  return { asked, put, answerAll, openNow: () => open.length, most: () => most };
}

describe('Mark all as read', () => {
  const projects = Array.from({ length: 10 }, (_, i) => `p${i}`);

  it("sends the spec's call for each project, several at once but no more than the bound", async () => {
    const server = slowServer();
    const done = markAllRead(projects, server.put);
    await new Promise((r) => setTimeout(r, 0));
    // one after another, the second would wait for the first's answer
    expect(server.openNow()).toBe(MARK_ALL_READ_AT_ONCE);
    await server.answerAll();
    await done;
    expect(server.most()).toBe(MARK_ALL_READ_AT_ONCE);
    expect([...server.asked].sort()).toEqual(projects.map((p) => `/ms-notification/projects/${p}/notifications/read`).sort());
  });

  it('marks the other projects read when one fails, then says it failed', async () => {
    const server = slowServer();
    const done = markAllRead(['p0', 'broken', 'p2', 'p3', 'p4', 'p5'], server.put);
    const failed = expect(done).rejects.toThrow('refused /ms-notification/projects/broken/notifications/read');
    await server.answerAll();
    await failed;
    expect(server.asked).toHaveLength(6);
  });

  it('asks nothing when no project has unread notifications', async () => {
    const server = slowServer();
    await markAllRead([], server.put);
    expect(server.asked).toEqual([]);
  });
});
