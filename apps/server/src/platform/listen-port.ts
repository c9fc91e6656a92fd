/** The port Gantry listens on when PORT is not set: HTTP's own, which needs root (or CAP_NET_BIND_SERVICE). */
export const DEFAULT_PORT = 80;
/** Where a start without PORT goes when port 80 is refused or taken: the first free of these, else any free port. */
export const FALLBACK_PORTS = Array.from({ length: 20 }, (_, i) => 8080 + i);

type Listen = (port: number) => Promise<string>;

export interface Listening {
  /** The address the server listens at (as Fastify's listen answers it). */
  address: string;
  /** Why Gantry is not on the port it would have used — said to the user at start. */
  fallback?: string;
}

const codeOf = (err: unknown) => (err as { code?: unknown } | null)?.code;

/**
 * Listens on PORT when it is set, failing with a message that says what to do when it is taken or
 * privileged (never silently elsewhere: a proxy or a bookmark expects that port). Without PORT it tries
 * port 80 and, when that is refused (not root) or taken, the first free port from 8080 on — so
 * `npm start` works for any user with no flags.
 */
export async function listenOnPort(listen: Listen, o: { port?: number }): Promise<Listening> {
  if (o.port !== undefined) {
    try {
      return { address: await listen(o.port) };
    } catch (err) {
      throw explicitPortError(err, o.port);
    }
  }
  const why = await tryListen(listen, DEFAULT_PORT);
  if (typeof why !== 'string') return why;
  const reason = why === 'EACCES' ? `Port ${DEFAULT_PORT} needs root (ports below 1024 do)` : `Port ${DEFAULT_PORT} is in use`;
  for (const port of [...FALLBACK_PORTS, 0]) {
    const outcome = await tryListen(listen, port);
    const took = port === 0 ? 'a free port' : `the first free port from ${FALLBACK_PORTS[0]}`;
    if (typeof outcome !== 'string') return { ...outcome, fallback: `${reason}, so Gantry took ${took}; set PORT to choose one.` };
  }
  throw new Error(`No free port to listen on (${reason}, ${FALLBACK_PORTS[0]}–${FALLBACK_PORTS.at(-1)} in use); set PORT`);
}

/** Listening, or the code of a refusal a fallback may step past (EACCES, EADDRINUSE); anything else is thrown. */
async function tryListen(listen: Listen, port: number): Promise<Listening | 'EACCES' | 'EADDRINUSE'> {
  try {
    return { address: await listen(port) };
  } catch (err) {
    const code = codeOf(err);
    if (code === 'EACCES' || code === 'EADDRINUSE') return code;
    throw err;
  }
}

function explicitPortError(err: unknown, port: number): unknown {
  const code = codeOf(err);
  if (code === 'EADDRINUSE') return new Error(`Port ${port} (PORT=${port}) is already in use: stop what listens there, or set PORT to a free port`);
  if (code === 'EACCES')
    return new Error(`Port ${port} (PORT=${port}) needs root (ports below 1024): run Gantry as root, or set PORT to 1024 or above (e.g. PORT=8080)`);
  return err;
}
