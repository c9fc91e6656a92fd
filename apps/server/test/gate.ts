import net from 'node:net';

/**
 * A gate a sandboxed build step waits at: the box sees nothing of the test's files, but shares the
 * network, so the gate is a loopback port that refuses connections until the test opens it.
 * The step runs `GATE_COMMAND` (bash's /dev/tcp; no curl needed in the box).
 */
export async function createGate() {
  const server = net.createServer((socket) => socket.end());
  // take a free port, then let it go: connections are refused until open()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    port,
    /** A shell loop that returns once the gate is open. */
    command: `until (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null; do sleep 0.05; done`,
    open: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}
