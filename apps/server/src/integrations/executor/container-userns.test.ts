import { describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox.js';
import { SUBID_BASE } from './container-userns.js';

describe('container builds in the sandbox', () => {
  it('an unprivileged server has none: a container-builder run is refused', () => {
    const box = createSandbox({ mode: 'bwrap', isRoot: false });
    expect(box.containerBuilds).toBe(false);
    expect(() => box.wrap('buildah', ['bud'], { mounts: [], cwd: '/', containerBuilder: true })).toThrow(/needs the Gantry server to run as root/);
  });

  it('as root, only a container-builder run gets every capability and /sys, and maps the uid from outside instead of dropping to it', () => {
    const box = createSandbox({ mode: 'bwrap', isRoot: true, network: 'host' }); // bwrap's own arguments, not the network wrapper's
    if (box.unavailable) return; // no bwrap on this host: the args cannot be built
    expect(box.containerBuilds).toBe(true);
    const plain = box.wrap('true', [], { mounts: [], cwd: '/' }).args;
    expect(plain.join(' ')).toContain('--cap-add CAP_SETUID --cap-add CAP_SETGID');
    expect(plain).not.toContain('/sys');
    expect(plain).toContain('setpriv');

    const builder = box.wrap('buildah', ['bud', '.'], { mounts: [], cwd: '/', containerBuilder: true }).args;
    expect(builder.join(' ')).toContain('--cap-add ALL --ro-bind /sys /sys');
    const command = builder.slice(builder.indexOf('--') + 1);
    expect(command.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(command[2]).toContain(`${SUBID_BASE + 1} 65535`);
    expect(command.slice(-2)).toEqual(['bud', '.']);
    expect(command).toContain(String(box.uid));
  });
});
