import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A seccomp filter (classic BPF, as bwrap's `--seccomp FD` loads it) that keeps a box's processes from making user
 * namespaces: `unshare` and `clone` with CLONE_NEWUSER answer EPERM, and `clone3` (whose flags a filter cannot read)
 * ENOSYS, on which the C libraries fall back to `clone`. Inside a user namespace of its own an unprivileged process
 * holds every capability over what it makes there (mounts, network namespaces…): the kernel's code it can then reach
 * is far more than a build step or a provisioner needs. Every other call is allowed; on an architecture it does not
 * know (neither x86_64 nor aarch64) the filter allows everything.
 *
 * bwrap's own `--disable-userns` does this too, but only for a box with `--unshare-user`, which a root Gantry does not
 * use (its boxes drop to the sandbox uid on the host). A container build's box (buildah, container-userns.ts) makes
 * its user namespace itself: it gets no filter.
 */
const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const CLONE_NEWUSER = 0x10000000;
/** x32 system calls on x86_64 (a number with this bit): answered ENOSYS, as no box runs x32 code. */
const X32_SYSCALL_BIT = 0x40000000;
const SYSCALLS = {
  x86_64: { clone: 56, unshare: 272, clone3: 435 },
  aarch64: { clone: 220, unshare: 97, clone3: 435 },
};
const EPERM = 1;
const ENOSYS = 38;

// BPF opcodes and seccomp's answers
const LD_W_ABS = 0x20;
const JEQ = 0x15;
const JGE = 0x35;
const JSET = 0x45;
const RET = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
// struct seccomp_data: nr, arch, instruction pointer, then the arguments (the first's low half at 16, little-endian)
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

/** An instruction; a jump names the labels it goes to (none: the next instruction). */
type Insn = { label?: string; code: number; k: number; jt?: string; jf?: string };

/** The filter's instructions (each 8 bytes: code, jt, jf, k). */
export function userNamespaceFilter(): Buffer {
  const x = SYSCALLS.x86_64;
  const a = SYSCALLS.aarch64;
  const prog: Insn[] = [
    { code: LD_W_ABS, k: ARCH },
    { code: JEQ, k: AUDIT_ARCH_X86_64, jt: 'x86_64' },
    { code: JEQ, k: AUDIT_ARCH_AARCH64, jt: 'aarch64', jf: 'allow' },
    { label: 'x86_64', code: LD_W_ABS, k: NR },
    { code: JGE, k: X32_SYSCALL_BIT, jt: 'enosys' },
    { code: JEQ, k: x.clone3, jt: 'enosys' },
    { code: JEQ, k: x.unshare, jt: 'flags' },
    { code: JEQ, k: x.clone, jt: 'flags', jf: 'allow' },
    { label: 'aarch64', code: LD_W_ABS, k: NR },
    { code: JEQ, k: a.clone3, jt: 'enosys' },
    { code: JEQ, k: a.unshare, jt: 'flags' },
    { code: JEQ, k: a.clone, jt: 'flags', jf: 'allow' },
    { label: 'flags', code: LD_W_ABS, k: ARG0 },
    { code: JSET, k: CLONE_NEWUSER, jt: 'eperm' },
    { label: 'allow', code: RET, k: RET_ALLOW },
    { label: 'eperm', code: RET, k: RET_ERRNO | EPERM },
    { label: 'enosys', code: RET, k: RET_ERRNO | ENOSYS },
  ];
  const at = new Map(prog.flatMap((insn, i) => (insn.label ? [[insn.label, i] as const] : [])));
  // a jump is counted from the instruction after it, forward only
  const offset = (from: number, label?: string) => (label === undefined ? 0 : at.get(label)! - from - 1);
  const buf = Buffer.alloc(prog.length * 8);
  prog.forEach((insn, i) => {
    buf.writeUInt16LE(insn.code, i * 8);
    buf.writeUInt8(offset(i, insn.jt), i * 8 + 2);
    buf.writeUInt8(offset(i, insn.jf), i * 8 + 3);
    buf.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return buf;
}

let written: string | undefined;
/** The filter in a file of this process's own (read by the box's bwrap through a descriptor its wrapper opens). */
export function userNamespaceFilterFile(): string {
  if (written && fs.existsSync(written)) return written;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-seccomp-'));
  const file = path.join(dir, 'no-userns.bpf');
  fs.writeFileSync(file, userNamespaceFilter(), { mode: 0o600 });
  return (written = file);
}
