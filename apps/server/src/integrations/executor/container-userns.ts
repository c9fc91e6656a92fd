/**
 * What a box needs for buildah to run a Dockerfile's RUN instructions (`--isolation chroot`): a user
 * namespace of the run's own in which the sandbox uid is root — with setgroups allowed and 65535
 * further ids for the owners of an image's files — and a /dev its mount namespace may remount.
 *
 * Only a box Gantry starts as root can have it: the ids are mapped from outside the namespace by the
 * box's first process, which is root on the host with every capability and runs only the fixed
 * script below (no user input reaches it). What buildah and the RUN commands then run as is the
 * sandbox uid on the host (and the ids above `SUBID_BASE`), with capabilities in their own namespace
 * only. An unprivileged Gantry cannot map more than its own uid with setgroups denied, which
 * buildah's chroot runtime cannot run under.
 */

/** Host ids 1,000,000,001–1,000,065,535 stand for an image's file owners 1–65535 (no host user has them). */
export const SUBID_BASE = 1_000_000_000;
export const SUBID_COUNT = 65_535;

/**
 * Root on the host, in the box: starts `unshare --user --mount` (keeping its capabilities in the new
 * namespace across exec), writes the child's uid and gid maps, then lets it go on; exits with its status.
 * Positional: uid, child script, dev script, command…
 */
const OUTER = `set -eu
uid=$1; child=$2; dev=$3; shift 3
devdir=$(mktemp -d /tmp/gantry-dev.XXXXXX); chown "$uid:$uid" "$devdir"
fifo=$(mktemp -u /tmp/gantry-userns.XXXXXX); mkfifo -m 0600 "$fifo"
unshare --user --mount --keep-caps -- /bin/sh -c "$child" gantry-userns "$fifo" "$dev" "$devdir" "$@" &
pid=$!
self=$(readlink /proc/self/ns/user)
while [ "$(readlink "/proc/$pid/ns/user" || true)" = "$self" ]; do sleep 0.005; done
printf '0 %s 1\\n1 ${SUBID_BASE + 1} ${SUBID_COUNT}\\n' "$uid" > "/proc/$pid/uid_map"
printf '0 %s 1\\n1 ${SUBID_BASE + 1} ${SUBID_COUNT}\\n' "$uid" > "/proc/$pid/gid_map"
echo go > "$fifo"; rm -f "$fifo"
status=0; wait "$pid" || status=$?
exit "$status"`;

/** In the new namespace, once mapped: become its root (the sandbox uid outside), no new privileges. */
const CHILD = `read _ < "$1"; dev=$2; devdir=$3; shift 3
exec setpriv --reuid=0 --regid=0 --clear-groups --no-new-privs -- /bin/sh -c "$dev" gantry-dev "$devdir" "$@"`;

/**
 * bwrap's /dev is a tmpfs mounted nodev from outside this namespace (a locked flag), which buildah
 * cannot bind read-only into the image; this namespace's own tmpfs, with the box's device nodes and
 * folders bound in, can be.
 */
const DEV = `set -eu
new=$1; shift
mount -n -t tmpfs -o mode=0755,nosuid tmpfs "$new"
for e in /dev/* /dev/.[!.]*; do
  [ -e "$e" ] || [ -L "$e" ] || continue
  n="$new/\${e#/dev/}"
  if [ -L "$e" ]; then ln -s "$(readlink "$e")" "$n"
  elif [ -d "$e" ]; then mkdir "$n"; mount -n --rbind "$e" "$n"
  else : > "$n"; mount -n --bind "$e" "$n"; fi
done
mount -n --move "$new" /dev
exec "$@"`;

/** The command line the box's first process runs instead of dropping to the sandbox uid. */
export function inContainerUserNamespace(uid: number, command: string, args: string[]): string[] {
  return ['/bin/sh', '-c', OUTER, 'gantry-userns', String(uid), CHILD, DEV, command, ...args];
}
