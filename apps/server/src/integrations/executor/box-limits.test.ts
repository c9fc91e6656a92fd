import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it, expect, afterEach } from 'vitest';
import { detectCgroups, formatSize, joinCommand, limitHit, parseSize, DEFAULT_BOX_LIMITS, BIGGER_BOX_LIMITS, GIB } from './box-limits.js';
import { loadConfig } from '../../config.js';

/** The cgroup detection and the sizes, on a fake cgroup tree (a folder laid out as /sys/fs/cgroup is). */
describe('box limits', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
  });
  const fakeRoot = (files: Record<string, string>) => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-cgroup-'));
    roots.push(root);
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
    return root;
  };
  const readIn = (root: string, file: string) => fs.readFileSync(path.join(root, file), 'utf8');

  it('reads sizes as an admin writes them, and says them as a user reads them', () => {
    expect(parseSize('2g')).toBe(2 * GIB);
    expect(parseSize('512M')).toBe(512 * 1024 ** 2);
    expect(parseSize('1.5GiB')).toBe(1.5 * GIB);
    expect(parseSize('268435456')).toBe(268435456);
    expect(parseSize('lots')).toBeNaN();
    expect(formatSize(2 * GIB)).toBe('2 GiB');
    expect(formatSize(96 * 1024 ** 2)).toBe('96 MiB');
    expect(formatSize(1.5 * GIB)).toBe('1.5 GiB');
  });

  it('sizes boxes as CI runners are by default, bigger for bigger plans, and as the admin says', () => {
    const config = loadConfig({});
    expect({ memoryBytes: config.GANTRY_BUILD_MEMORY, processes: config.GANTRY_BUILD_PROCESSES, cpus: config.GANTRY_BUILD_CPUS }).toEqual(DEFAULT_BOX_LIMITS);
    expect({
      memoryBytes: config.GANTRY_BUILD_MEMORY_BIGGER,
      processes: config.GANTRY_BUILD_PROCESSES_BIGGER,
      cpus: config.GANTRY_BUILD_CPUS_BIGGER,
    }).toEqual(BIGGER_BOX_LIMITS);
    expect(DEFAULT_BOX_LIMITS).toEqual({ memoryBytes: 2 * GIB, processes: 1024, cpus: 1 });
    expect(BIGGER_BOX_LIMITS).toEqual({ memoryBytes: 8 * GIB, processes: 4096, cpus: 2 });
    const set = loadConfig({ GANTRY_BUILD_MEMORY: '4g', GANTRY_BUILD_PROCESSES: '2048', GANTRY_BUILD_CPUS: '0.5', GANTRY_BUILD_CPUS_BIGGER: '0' });
    expect([set.GANTRY_BUILD_MEMORY, set.GANTRY_BUILD_PROCESSES, set.GANTRY_BUILD_CPUS, set.GANTRY_BUILD_CPUS_BIGGER]).toEqual([4 * GIB, 2048, 0.5, 0]);
    expect(() => loadConfig({ GANTRY_BUILD_MEMORY: '1k' })).toThrow(/at least 16 MiB/);
    expect(() => loadConfig({ GANTRY_BUILD_CPUS: 'many' })).toThrow(/number of CPUs/);
    expect(() => loadConfig({ GANTRY_BUILD_CPUS: '0.001' })).toThrow(/number of CPUs/);
  });

  it('makes a v2 group below the server’s own, with memory, swap and process limits', () => {
    const root = fakeRoot({
      'cgroup.controllers': 'cpu memory pids',
      'system.slice/gantry.service/cgroup.controllers': 'memory pids',
      'system.slice/gantry.service/cgroup.subtree_control': '',
      'system.slice/gantry.service/gantry/cgroup.subtree_control': '',
    });
    const cgroups = detectCgroups({ root, selfCgroup: '0::/system.slice/gantry.service\n' });
    expect([cgroups.kind, cgroups.reason]).toEqual(['v2', null]);
    expect(readIn(root, 'system.slice/gantry.service/cgroup.subtree_control')).toBe('+memory +pids');
    const group = cgroups.group('b-1', { memoryBytes: 96 * 1024 ** 2, processes: 64, cpus: 1 });
    const dir = 'system.slice/gantry.service/gantry/b-1';
    expect([readIn(root, `${dir}/memory.max`), readIn(root, `${dir}/memory.swap.max`), readIn(root, `${dir}/pids.max`)]).toEqual([
      String(96 * 1024 ** 2),
      '0',
      '64',
    ]);
    expect(group.joinFiles).toEqual([path.join(root, dir, 'cgroup.procs')]);
    group.resize(BIGGER_BOX_LIMITS);
    expect(readIn(root, `${dir}/pids.max`)).toBe('4096');
    expect(cgroups.names()).toEqual(['b-1']);
    // what the kernel counts: an OOM kill, refused forks
    const before = group.events();
    fs.writeFileSync(path.join(root, dir, 'memory.events'), 'low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n');
    expect(limitHit(before, group.events(), group.limits)).toBe('A process was killed: the step went over its memory limit of 8 GiB');
    fs.writeFileSync(path.join(root, dir, 'memory.events'), 'oom_kill 0\n');
    fs.writeFileSync(path.join(root, dir, 'pids.events'), 'max 12\n');
    expect(limitHit(before, group.events(), group.limits)).toBe('The step hit its limit of 4096 processes (a fork was refused)');
    expect(limitHit(before, before, group.limits)).toBeNull();
  });

  it('makes a v1 group in the pids and memory hierarchies, swap included where it is accounted', () => {
    const root = fakeRoot({
      'pids/cgroup.procs': '',
      'memory/cgroup.procs': '',
      'memory/svc/gantry/b-2/memory.memsw.limit_in_bytes': '9223372036854771712',
    });
    const cgroups = detectCgroups({ root, selfCgroup: '8:pids:/\n4:memory:/svc\n2:cpu,cpuacct:/\n0::/\n', kind: 'v1' });
    expect(cgroups.kind).toBe('v1');
    const group = cgroups.group('b-2', { memoryBytes: 2 * GIB, processes: 1024, cpus: 1 });
    expect([
      readIn(root, 'pids/gantry/b-2/pids.max'),
      readIn(root, 'memory/svc/gantry/b-2/memory.limit_in_bytes'),
      readIn(root, 'memory/svc/gantry/b-2/memory.memsw.limit_in_bytes'),
    ]).toEqual(['1024', String(2 * GIB), String(2 * GIB)]);
    expect(group.joinFiles).toEqual([path.join(root, 'pids/gantry/b-2/cgroup.procs'), path.join(root, 'memory/svc/gantry/b-2/cgroup.procs')]);
    const before = group.events();
    fs.writeFileSync(path.join(root, 'memory/svc/gantry/b-2/memory.oom_control'), 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n');
    expect(limitHit(before, group.events(), group.limits)).toBe('A process was killed: the step went over its memory limit of 2 GiB');
    // the box's first process joins both before it execs the box
    const joined = joinCommand(group, 'bwrap', ['--', 'true']);
    expect(joined.command).toBe('/bin/sh');
    expect(joined.args.slice(3)).toEqual([...group.joinFiles, '--', 'bwrap', '--', 'true']);
  });

  it('limits the CPUs of a group where the cpu controller is there: v2 cpu.max and cpu.weight, v1 CFS quota and shares', () => {
    const v2 = fakeRoot({
      'cgroup.controllers': 'cpu memory pids',
      'svc/cgroup.controllers': 'cpu memory pids',
      'svc/cgroup.subtree_control': '',
      'svc/gantry/cgroup.subtree_control': '',
    });
    const unified = detectCgroups({ root: v2, selfCgroup: '0::/svc\n' });
    expect(readIn(v2, 'svc/gantry/cgroup.subtree_control')).toBe('+cpu');
    const g2 = unified.group('b-4', { memoryBytes: GIB, processes: 64, cpus: 0.2 });
    expect([readIn(v2, 'svc/gantry/b-4/cpu.max'), readIn(v2, 'svc/gantry/b-4/cpu.weight')]).toEqual(['20000 100000', '20']);
    g2.resize(BIGGER_BOX_LIMITS);
    expect([readIn(v2, 'svc/gantry/b-4/cpu.max'), readIn(v2, 'svc/gantry/b-4/cpu.weight')]).toEqual(['200000 100000', '200']);
    g2.resize({ ...BIGGER_BOX_LIMITS, cpus: 0 });
    expect([readIn(v2, 'svc/gantry/b-4/cpu.max'), readIn(v2, 'svc/gantry/b-4/cpu.weight')]).toEqual(['max 100000', '100']);

    const v1 = fakeRoot({ 'pids/cgroup.procs': '', 'memory/cgroup.procs': '', 'cpu/cgroup.procs': '', 'cpu/cpu.cfs_quota_us': '-1' });
    const perController = detectCgroups({ root: v1, selfCgroup: '8:pids:/\n4:memory:/\n2:cpu,cpuacct:/\n0::/\n', kind: 'v1' });
    const g1 = perController.group('b-5', { ...DEFAULT_BOX_LIMITS, cpus: 1.5 });
    expect(['cpu.cfs_period_us', 'cpu.cfs_quota_us', 'cpu.shares'].map((f) => readIn(v1, `cpu/gantry/b-5/${f}`))).toEqual(['100000', '150000', '1536']);
    // its boxes join the cpu hierarchy's group too
    expect(g1.joinFiles).toContain(path.join(v1, 'cpu/gantry/b-5/cgroup.procs'));
    g1.resize({ ...DEFAULT_BOX_LIMITS, cpus: 0 });
    expect(readIn(v1, 'cpu/gantry/b-5/cpu.cfs_quota_us')).toBe('-1');
    expect(perController.names()).toEqual(['b-5']);
  });

  it('falls back to rlimits when no cgroup can be made, and says why', () => {
    const root = fakeRoot({});
    const cgroups = detectCgroups({ root, selfCgroup: '0::/\n', kind: 'v1' });
    expect(cgroups.kind).toBe('none');
    expect(cgroups.reason).toMatch(/no cgroup v1 pids hierarchy/);
    const group = cgroups.group('b-3', DEFAULT_BOX_LIMITS);
    expect(group.joinFiles).toEqual([]);
    expect(joinCommand(group, 'bwrap', ['x'])).toEqual({ command: 'prlimit', args: [`--data=${2 * GIB}`, '--nproc=1024', '--', 'bwrap', 'x'] });
    // a v2 tree whose controllers are not delegated to the server
    const v2 = fakeRoot({ 'cgroup.controllers': 'memory pids', 'svc/cgroup.controllers': 'cpu' });
    expect(detectCgroups({ root: v2, selfCgroup: '0::/svc\n' }).reason).toMatch(/memory, pids are not delegated/);
  });
});
