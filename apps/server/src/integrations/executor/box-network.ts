import { isIP } from 'node:net';

/**
 * The network of a box (GANTRY_BOX_NETWORK=box, the default): bwrap gives it a network namespace of
 * its own, and passt's `pasta` (Debian package "passt") connects that namespace to the outside through
 * a user-mode TCP/UDP stack, so a step reaches the internet and the LAN as the host would, but
 *  - not the host's loopback: 127.0.0.1 in the box is the box's own. `--no-map-gw` keeps the gateway
 *    address from leading there, and `-T`/`-U` forward only the listed ports of the box's loopback to the
 *    host's (the git provider, registry or terraform mirror Gantry hands the run, and what the admin lists
 *    in GANTRY_BOX_LOOPBACK_PORTS). pasta's default of `auto` (every port bound on the host) is never used;
 *  - not the cloud metadata endpoints: `unreachable` routes for 169.254.0.0/16 and fd00:ec2::254 are set
 *    in the namespace before the command starts, by the server's side (nsenter + ip); in the box the command
 *    has no CAP_NET_ADMIN over that namespace (root: it drops to the sandbox uid; otherwise the namespace
 *    belongs to a user namespace above the box's own), so it cannot remove them.
 * The box gets 10.0.2.100/24 with 10.0.2.2 as gateway (slirp's addresses), not pasta's default of the
 * host's own address, so the host's LAN address reaches the host (its services bound to it or to 0.0.0.0).
 *
 * How: the command started is bash running BOX_NETWORK_WRAPPER, which execs bwrap itself (the pid the
 * server signals stays bwrap's) with `--info-fd`/`--block-fd` pipes, after forking a helper that
 *  1. reads the box's pid from bwrap and passes it on to fd 3 (what readChildPid reads; bwrap never sees fd 3);
 *  2. starts pasta on the box's namespace (an fd of it: pasta, keeping only network capabilities, may
 *     not open /proc/<pid>/ns itself) and sets the routes;
 *  3. releases the box's first process (`--block-fd`): it starts only once its network is there;
 *  4. waits for the box to end (EOF on a pipe only bwrap holds open) and ends pasta, which does not end
 *     by itself while it holds the namespace.
 * If pasta or the routes fail, the helper says so on stderr (the run's log) and kills bwrap: the run
 * fails rather than run without them.
 */
export type BoxNetwork = 'box' | 'host';

/** The link-local ranges of the cloud metadata endpoints (AWS, GCP, Azure, OCI: 169.254.169.254; AWS IPv6). */
const METADATA_ROUTES = ['route add unreachable 169.254.0.0/16', 'route add unreachable fd00:ec2::254/128'];

export const BOX_NETWORK_MISSING_HELP =
  'Build steps and terraform runs get a network of their own through passt\'s pasta (Debian package "passt": apt-get install passt). ' +
  "Install it, or set GANTRY_BOX_NETWORK=host to let them share the host's network (the services on its loopback and the cloud metadata endpoint included).";

export const BOX_NETWORK_WRAPPER = String.raw`
mode=$1 routes=$2
shift 2
net=()
while [[ $1 != -- ]]; do net+=("$1"); shift; done
shift
exec {i}<> <(:) {b}<> <(:) {a}<> <(:)
exec {ir}</dev/fd/$i {iw}>/dev/fd/$i {br}</dev/fd/$b {bw}>/dev/fd/$b {ar}</dev/fd/$a {aw}>/dev/fd/$a {i}>&- {b}>&- {a}>&-
box=$$
# the helper is a process group of its own (set -m): a box is ended by SIGKILL to its group (a cancel, a warm box
# not used), which must not end the helper with it, or the pasta it started would live on, holding the namespace
set -m
(
  PATH=/usr/sbin:/usr/bin:/sbin:/bin
  exec {iw}>&- {br}>&- {aw}>&- </dev/null
  fail() {
    echo "[gantry] The box's network could not be started: $1. GANTRY_BOX_NETWORK=host runs boxes on the host's network instead (README, Security)" >&2
    # the box's first process too: released by this helper's end, it would run without its network
    kill -KILL "$pid" $box
    exit 1
  }
  info=
  while IFS= read -r line <&$ir; do
    info+=$line
    [[ $info =~ \"child-pid\":\ *([0-9]+) ]] && break
  done
  pid=${'$'}{BASH_REMATCH[1]}
  [[ $pid ]] || exit 0
  echo "{\"child-pid\": $pid}" >&3
  # the info pipe stays open: bwrap may still be writing the rest of its JSON (no reader left would kill it with SIGPIPE)
  exec 3>&-
  ns=(--netns /proc/self/fd/9) enter=(--net=/proc/$pid/ns/net)
  if [[ $mode == user ]]; then
    ns+=(--userns /proc/self/fd/8)
    enter+=(--user=/proc/$pid/ns/user --preserve-credentials)
  fi
  # pasta sets up the namespace's loopback too: it starts once bwrap's own set-up of it is done (its
  # first process waits on the block fd), or bwrap's can fail (RTM_NEWADDR: Inappropriate ioctl for device)
  printf -v blocked '0 0x%x ' $br
  until read -r syscall < /proc/$pid/syscall && [[ $syscall == "$blocked"* ]]; do
    [[ -e /proc/$pid ]] || exit 0
    read -r -t 0.001 -u $ar && exit 0
  done 2> /dev/null
  exec {p}<> <(:)
  exec {pr}</dev/fd/$p {pw}>/dev/fd/$p {p}>&-
  pasta "${'$'}{net[@]}" "${'$'}{ns[@]}" -P /proc/self/fd/$pw 9</proc/$pid/ns/net 8</proc/$pid/ns/user > /dev/null 2>&1 || fail "pasta exited with code $?"
  exec {pw}>&-
  read -r pasta <&$pr
  printf '%s\n' "$routes" | nsenter "${'$'}{enter[@]}" ip -batch - > /dev/null || {
    code=$?
    kill "$pasta"
    fail "ip exited with code $code"
  }
  # a box killed meanwhile leaves no reader on the block pipe: the write fails, and the helper goes on to end pasta
  # (only now: pasta, started with SIGPIPE ignored, cannot install its signal handlers)
  trap '' PIPE
  echo >&$bw
  exec {bw}>&- {pr}<&- > /dev/null 2>&1
  read -r <&$ar
  kill "$pasta"
) &
set +m
# bwrap gets the environment this bash was started with, not bash's own additions (SHLVL, PWD, _)
readarray -d '' -t environ < /proc/self/environ
exec {ir}<&- {bw}>&- {ar}<&- 3>&- /usr/bin/env -i -- "${'$'}{environ[@]}" "$1" --info-fd $iw --block-fd $br "${'$'}{@:2}"
`;

/** What a box's network is set up with: the metadata routes (an `ip -batch` script) and pasta's options. */
export function boxNetworkSetup(o: { isRoot: boolean; loopbackPorts: number[] }): { routes: string; pasta: string[] } {
  const ports = [...new Set(o.loopbackPorts)].sort((a, b) => a - b).join(',') || 'none';
  return {
    routes: METADATA_ROUTES.join('\n'),
    pasta: [
      '--quiet',
      // as root pasta would switch to nobody, which may not enter the box's namespace: it keeps root's uid with network capabilities only
      ...(o.isRoot ? ['--runas', '0:0'] : []),
      '--config-net',
      '--no-map-gw',
      ...['--address', '10.0.2.100', '--netmask', '24', '--gateway', '10.0.2.2'],
      ...['--tcp-ports', 'none', '--udp-ports', 'none', '--tcp-ns', ports, '--udp-ns', ports],
    ],
  };
}

/** The wrapper's arguments before bwrap's own: who starts pasta, the routes, pasta's options. */
export function boxNetworkArgs(o: { isRoot: boolean; loopbackPorts: number[] }): string[] {
  const { routes, pasta } = boxNetworkSetup(o);
  return [o.isRoot ? 'root' : 'user', routes, ...pasta, '--'];
}

/** Whether a URL's host is the host's loopback (127.0.0.0/8, ::1, localhost). */
function isLoopbackHost(hostname: string) {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1' || host === '0:0:0:0:0:0:0:1';
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'ssh:': 22, 'git:': 9418 };

/**
 * The host loopback ports of the endpoints Gantry itself hands a run (a clone URL, a registry): a box
 * reaches these on its own 127.0.0.1 (GANTRY_BOX_NETWORK=box). Anything else (a host name, another
 * address, text that is not a URL) gives none: it is reached over the network as it is.
 */
export function loopbackPortsOf(...urls: (string | undefined | null)[]): number[] {
  const ports: number[] = [];
  for (const raw of urls) {
    if (!raw) continue;
    const url = URL.canParse(raw) ? new URL(raw) : URL.canParse(`https://${raw}`) ? new URL(`https://${raw}`) : null;
    if (!url || !isLoopbackHost(url.hostname)) continue;
    const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol];
    if (port) ports.push(port);
  }
  return ports;
}

/** The URLs written in a text (a terraform CLI config's mirror and host blocks). */
export const urlsIn = (text: string) => text.match(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi) ?? [];
