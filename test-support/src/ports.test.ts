import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, waitForPort } from './ports.js';

describe('ports', () => {
  it('gives a port that can be listened on, and waits until something listens', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    await expect(waitForPort(port, '127.0.0.1', 150)).rejects.toThrow(/nothing listens/);
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await expect(waitForPort(port, '127.0.0.1', 2_000)).resolves.toBeUndefined();
    await new Promise((resolve) => server.close(resolve));
  });
});
