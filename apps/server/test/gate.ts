import net from 'node:net';

/**
 * A gate a sandboxed build step waits at: the box sees nothing of the test's files, but reaches the
 * network, so the gate is a loopback port answering `closed` until the test opens it, then `open`. A
 * box has a network of its own: the app must list the port in GANTRY_BOX_LOOPBACK_PORTS (pasta accepts
 * a forwarded connection in the box before the host's side answers, so the gate answers in words
 * rather than by refusing connections).
 * The step runs `GATE_COMMAND` (bash's /dev/tcp; no curl needed in the box).
 */
export async function createGate() {
  let opened = false;
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    socket.end(opened ? 'open\n' : 'closed\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    /** A shell loop that returns once the gate is open. */
    command: `until read -r gate 2>/dev/null < /dev/tcp/127.0.0.1/${port} && [ "$gate" = open ]; do sleep 0.05; done`,
    open: async () => {
      opened = true;
    },
    close: async () => {
      opened = false;
    },
    /** Ends the gate's server (after the tests). */
    stop: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
}
