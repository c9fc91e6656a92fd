import { describe, it, expect } from 'vitest';
import { createSandbox } from './sandbox.js';
import { inBox } from '../../../test/in-box.js';
import { userNamespaceFilter } from './userns-filter.js';

describe('a box makes no user namespace', () => {
  it('is a filter of whole instructions, every jump forward within it', () => {
    const filter = userNamespaceFilter();
    expect(filter.length % 8).toBe(0);
    const count = filter.length / 8;
    for (let i = 0; i < count; i++) {
      const [code, jt, jf] = [filter.readUInt16LE(i * 8), filter.readUInt8(i * 8 + 2), filter.readUInt8(i * 8 + 3)];
      if ((code & 0x07) === 0x05)
        expect(i + 1 + Math.max(jt, jf)).toBeLessThan(count); // a jump (BPF_JMP)
      else expect([jt, jf]).toEqual([0, 0]);
    }
    // it ends by answering
    expect(filter.readUInt16LE(filter.length - 8)).toBe(0x06);
  });

  // bwrap started by itself, and through its network's wrapper
  it.each(['host', 'box'] as const)('refuses unshare -U and a clone into a new user namespace, and runs the rest as before (network %s)', async (network) => {
    const sandbox = createSandbox({ mode: 'bwrap', network });
    if (sandbox.unavailable) return; // no bwrap (or pasta) on this host
    const { code, lines } = await inBox(
      sandbox,
      // a user namespace by unshare(2), as its root too, and by clone(2) (bwrap, unprivileged, makes its box so); forks
      // and an unshare of nothing go on
      'exec 2>&1; unshare -U true; echo "user $?"; unshare -Ur id -u; echo "root $?"; bwrap --unshare-user --dev-bind / / true; echo "clone $?"; ' +
        '(echo fork) ; sh -c "echo child"; unshare true; echo "plain $?"; id -u',
    );
    const text = lines.join('\n');
    expect(code).toBe(0);
    expect(text).toMatch(/unshare: unshare failed: Operation not permitted\nuser 1/);
    expect(text).toMatch(/root 1/);
    expect(text).toMatch(/bwrap: No permissions to create new namespace.*\nclone 1/);
    expect(text).toMatch(/fork\nchild\nplain 0\n\d+$/);
  });
});
