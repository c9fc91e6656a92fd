import { launch, type LaunchedProcess } from './launcher.js';

/**
 * Networks made ready before their box asks (GANTRY_BOX_NETWORK=box, a server running as root): starting pasta
 * and setting the metadata routes takes 25–160 ms, which a box otherwise waits for before its command starts
 * (terraform's box, a clone). A keeper process makes a network namespace (held by a `sleep` in it), connects
 * it with pasta and sets the routes exactly as box-network.ts does for a box's own namespace, then waits. A
 * box takes it whole: bwrap is started inside that namespace (nsenter) instead of unsharing one, so it gets
 * the same network — the same pasta options, the same loopback ports, the same routes it has no capability to
 * remove (the namespace belongs to the host's user namespace). A namespace serves one box only: when that
 * box ends, its keeper ends pasta and the holder, and the namespace is gone. Nothing of one box is ever
 * reachable from another's.
 *
 * The keeper's lines: `ready <keeper pid> <fd> <holder pid>` on stdout once the network is there; it reads
 * `taken` on stdin when a box is given it, then the box's first line on the pipe at `fd` (the box opens it
 * through /proc/<keeper pid>/fd/<fd>), and ends everything on that pipe's EOF: only the box holds it then.
 * Its stdin ending before `taken` (the pool closed, the server gone with its launcher) ends it too.
 */
const KEEPER = String.raw`
routes=$1
shift
net=()
while [[ $1 != -- ]]; do net+=("$1"); shift; done
PATH=/usr/sbin:/usr/bin:/sbin:/bin
holder= pasta=
stop() {
  [[ $pasta ]] && kill "$pasta" 2> /dev/null
  [[ $holder ]] && kill -KILL "$holder" 2> /dev/null
  exit "${'$'}{1:-0}"
}
trap stop TERM HUP
fail() {
  echo "$1" >&2
  stop 1
}
exec {t}<> <(:)
exec {tr}</dev/fd/$t {tw}>/dev/fd/$t {t}>&-
# the namespace's holder: nothing runs in it but this sleep, killed with the keeper (pdeathsig) if need be.
# Neither it nor pasta may hold the box's pipe (its end would never be seen)
setpriv --pdeathsig KILL unshare --net -- sleep infinity < /dev/null > /dev/null 2>&1 {tr}<&- {tw}>&- &
holder=$!
own=$(readlink /proc/$$/ns/net)
until ns=$(readlink /proc/$holder/ns/net 2> /dev/null) && [[ $ns != "$own" ]]; do
  [[ -e /proc/$holder ]] || fail "unshare exited"
  read -r -t 0.001 -u $tr
done
exec {p}<> <(:)
exec {pr}</dev/fd/$p {pw}>/dev/fd/$p {p}>&-
pasta "${'$'}{net[@]}" --netns /proc/self/fd/9 -P /proc/self/fd/$pw 9</proc/$holder/ns/net < /dev/null > /dev/null 2>&1 {tr}<&- {tw}>&- {pr}<&- || fail "pasta exited with code $?"
exec {pw}>&-
read -r pasta <&$pr
exec {pr}<&-
# only now: pasta, started with SIGPIPE ignored, could not install its signal handlers
trap '' PIPE
printf '%s\n' "$routes" | nsenter --net=/proc/$holder/ns/net ip -batch - > /dev/null || fail "ip exited with code $?"
echo "ready $$ $tw $holder"
read -r taken && [[ $taken == taken ]] || stop
# the box opens the pipe, then says so; from then on only the box holds it (a box that never comes: 30 s)
read -r -t 30 -u $tr || stop
exec {tw}>&-
while read -r -u $tr; do :; done
stop
`;

/**
 * What a box taking a pooled network runs before bwrap: it opens its keeper's pipe (the keeper ends the
 * network when that pipe closes, i.e. when the box has ended) and execs bwrap inside the namespace, with
 * the environment it was started with (not bash's own additions), keeping its pid.
 */
export const POOLED_BOX_WRAPPER = String.raw`
keeper=$1 fd=$2 holder=$3
shift 3
# (the group's redirection of stderr ends with it: the box's own stderr is the run's log)
{ exec {k}> "/proc/$keeper/fd/$fd"; } 2> /dev/null || {
  echo "[gantry] The box's network could not be started: its prepared namespace is gone. GANTRY_BOX_NETWORK=host runs boxes on the host's network instead (README, Security)" >&2
  exit 1
}
echo "$$" >&$k
readarray -d '' -t environ < /proc/self/environ
exec /usr/bin/nsenter --net=/proc/$holder/ns/net -- /usr/bin/env -i -- "${'$'}{environ[@]}" "$@"
`;

export interface PooledNetwork {
  keeperPid: number;
  fd: number;
  holderPid: number;
}

export interface NetworkPool {
  /** A ready network for a box reaching these host loopback ports, now its own; undefined when none is (one is made ready for the next box). */
  take(loopbackPorts: number[]): PooledNetwork | undefined;
  /** Makes a network for these ports ready ahead of the first box that asks. */
  warm(loopbackPorts: number[]): void;
  /** How many networks for these ports are ready now. */
  ready(loopbackPorts: number[]): number;
  /** Ends every network not taken (those taken end with their box). */
  close(): void;
}

interface Keeper {
  process: LaunchedProcess;
  ready?: PooledNetwork;
}

/** Networks kept ready per set of loopback ports: a build's clone and step boxes can both take one at once. */
const READY_PER_PORTS = 2;
/** Sets of ports kept ready (the least recently used one gives way): each network holds a pasta (~30 MB). */
const PORT_SETS = 2;
/** A keeper that failed: no other is started for its ports for this long (the box starts its own pasta, and says why it cannot). */
const RETRY_AFTER_MS = 30_000;

export function createNetworkPool(o: {
  /** How a network for these ports is set up (box-network.ts): the same as a box's own. */
  setup: (loopbackPorts: number[]) => { routes: string; pasta: string[] };
}): NetworkPool {
  const keepers = new Map<string, Keeper[]>();
  const failedAt = new Map<string, number>();
  let closed = false;
  const keyOf = (ports: number[]) => [...new Set(ports)].sort((a, b) => a - b).join(',');

  const endKeeper = (k: Keeper) => k.process.stdin?.end();
  /** Takes a keeper off its ports' list; whether it was there (not taken, not given way). */
  const remove = (key: string, keeper: Keeper) => {
    const list = keepers.get(key);
    if (!list?.includes(keeper)) return false;
    keepers.set(
      key,
      list.filter((k) => k !== keeper),
    );
    return true;
  };

  function start(key: string, ports: number[]) {
    const { routes, pasta } = o.setup(ports);
    const process = launch('bash', ['--norc', '--noprofile', '-c', KEEPER, 'gantry-box-network', routes, ...pasta, '--'], {
      cwd: '/',
      env: { PATH: '/usr/bin:/bin' },
      stdin: true,
    });
    const keeper: Keeper = { process };
    process.stdin?.on('error', () => undefined);
    let out = '';
    process.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const m = /^ready (\d+) (\d+) (\d+)\n/.exec(out);
      if (m && !keeper.ready) keeper.ready = { keeperPid: Number(m[1]), fd: Number(m[2]), holderPid: Number(m[3]) };
    });
    process.stderr.resume();
    const gone = () => {
      // it ended before any box took it: pasta or the routes failed
      if (remove(key, keeper) && !closed) failedAt.set(key, Date.now());
    };
    process.once('error', gone);
    process.once('close', gone);
    keepers.set(key, [...(keepers.get(key) ?? []), keeper]);
  }

  function fill(ports: number[]) {
    if (closed) return;
    const key = keyOf(ports);
    if (Date.now() - (failedAt.get(key) ?? 0) < RETRY_AFTER_MS) return;
    // most recently used last: the first key is the one to give way
    const list = keepers.get(key) ?? [];
    keepers.delete(key);
    keepers.set(key, list);
    for (const [k, l] of keepers) {
      if (keepers.size <= PORT_SETS) break;
      l.forEach(endKeeper);
      keepers.delete(k);
    }
    for (let n = list.length; n < READY_PER_PORTS; n++) start(key, ports);
  }

  return {
    take(ports) {
      const key = keyOf(ports);
      const keeper = keepers.get(key)?.find((k) => k.ready);
      if (keeper) {
        remove(key, keeper);
        keeper.process.stdin!.end('taken\n');
      }
      fill(ports);
      return keeper?.ready;
    },
    warm: fill,
    ready: (ports) => (keepers.get(keyOf(ports)) ?? []).filter((k) => k.ready).length,
    close() {
      closed = true;
      for (const list of keepers.values()) list.forEach(endKeeper);
      keepers.clear();
    },
  };
}
