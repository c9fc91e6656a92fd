import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createSandbox, type Sandbox } from './sandbox.js';
import { startBoxRunner } from './box-runner.js';
import { openBox } from './opened-box.js';
import { BOX_NETWORK_MISSING_HELP, loopbackPortsOf, urlsIn } from './box-network.js';
import { until } from '../../../test/helpers.js';
import { inBox } from '../../../test/in-box.js';

/**
 * A box's network (GANTRY_BOX_NETWORK=box, real bubblewrap and pasta): a step reaches the host over its
 * LAN address and the loopback ports it was handed, not the rest of the host's loopback nor the cloud
 * metadata endpoint, and cannot lift the metadata block.
 */
type Server = net.Server & { port: number };
const listen = (host: string) =>
  new Promise<Server>((resolve) => {
    const s = net.createServer((c) => {
      c.on('error', () => undefined); // the step closes as soon as it has read the line
      c.end('hello from the host\n');
    });
    s.listen(0, host, () => resolve(Object.assign(s, { port: (s.address() as net.AddressInfo).port })));
  });
/** The host's own non-loopback IPv4 address (eth0 here), found at run time. */
const lanAddress = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

let loopbackOnly: Server; // a service bound to 127.0.0.1 only: PostgreSQL, Gantry's own port
let handed: Server; // a loopback endpoint Gantry hands the run (a local git provider)
let admin: Server; // a port the admin lists in GANTRY_BOX_LOOPBACK_PORTS
let onLan: Server; // a service of the host on all its addresses
const never = new AbortController().signal;

beforeAll(async () => {
  [loopbackOnly, handed, admin, onLan] = await Promise.all([listen('127.0.0.1'), listen('127.0.0.1'), listen('127.0.0.1'), listen('0.0.0.0')]);
});
afterAll(() => {
  for (const s of [loopbackOnly, handed, admin, onLan]) s?.close();
});

/** bash connects to each address/port in turn and prints `<target> ok|refused <ms>` (a first line read when ok). */
const probeScript = (targets: string[]) =>
  targets
    .map(
      (t) =>
        `s=$(date +%s%N); if read -r -t 5 line 2>/dev/null < /dev/tcp/${t.replace(':', '/')}; then r="ok $line"; else r=refused; fi; ` +
        `echo "${t} $r $(( ($(date +%s%N) - s) / 1000000 ))ms"`,
    )
    .join('\n');

const result = (lines: string[], target: string) => {
  const m = new RegExp(`^${target.replace(/[.[\]]/g, '\\$&')} (ok|refused)(.*?) (\\d+)ms$`).exec(lines.find((l) => l.startsWith(`${target} `)) ?? '');
  return m ? { reached: m[1] === 'ok', text: m[2].trim(), ms: Number(m[3]) } : undefined;
};

describe('a box has a network of its own', { timeout: 60_000 }, () => {
  const sandbox = createSandbox({ mode: 'bwrap', network: 'box', loopbackPorts: [] });

  it('reaches the host on its LAN address and a handed loopback port, not the rest of the loopback nor the metadata endpoint', async () => {
    const lan = lanAddress();
    expect(lan, 'the host has a non-loopback IPv4 address').toBeTruthy();
    const admins = createSandbox({ mode: 'bwrap', network: 'box', loopbackPorts: [admin.port] });
    const targets = [`127.0.0.1:${loopbackOnly.port}`, `127.0.0.1:${handed.port}`, `127.0.0.1:${admin.port}`, `${lan}:${onLan.port}`, '169.254.169.254:80'];
    const { code, lines } = await inBox(admins, probeScript(targets), [handed.port]);
    expect(code, lines.join('\n')).toBe(0);
    const at = (t: string) => result(lines, t);
    expect(at(`127.0.0.1:${loopbackOnly.port}`), lines.join('\n')).toMatchObject({ reached: false });
    expect(at(`127.0.0.1:${loopbackOnly.port}`)!.ms).toBeLessThan(2000);
    expect(at(`127.0.0.1:${handed.port}`)).toMatchObject({ reached: true, text: 'hello from the host' });
    expect(at(`127.0.0.1:${admin.port}`)).toMatchObject({ reached: true, text: 'hello from the host' });
    expect(at(`${lan}:${onLan.port}`)).toMatchObject({ reached: true, text: 'hello from the host' });
    // unreachable at once (a route in the box's namespace), not a connect timeout of many seconds
    expect(at('169.254.169.254:80')).toMatchObject({ reached: false });
    expect(at('169.254.169.254:80')!.ms).toBeLessThan(2000);
  });

  it('cannot remove the metadata block nor add a route of its own', async () => {
    const { lines } = await inBox(
      sandbox,
      'ip route; ip route del unreachable 169.254.0.0/16 && echo DELETED; ip route add 169.254.169.254/32 via 10.0.2.2 && echo ADDED; ip -6 route del unreachable fd00:ec2::254 && echo DELETED6; id -u',
    );
    expect(lines).toContain('unreachable 169.254.0.0/16 ');
    expect(lines.join('\n')).not.toMatch(/DELETED|ADDED/);
    expect(lines.join('\n')).toMatch(/Operation not permitted/);
  });

  it("a build's one box (through the launcher) has the same network", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'box-network-'));
    fs.chmodSync(dir, 0o755);
    const box = startBoxRunner(sandbox, { mounts: [{ path: dir }], cwd: '/' });
    try {
      const lines: string[] = [];
      const file = path.join(dir, 'step.sh');
      fs.writeFileSync(file, probeScript([`127.0.0.1:${loopbackOnly.port}`, '169.254.169.254:80', `${lanAddress()}:${onLan.port}`]), { mode: 0o644 });
      await box.run(file, { cwd: '/', env: { PATH: '/usr/bin:/bin' }, signal: never, onLine: (l) => lines.push(l) });
      expect(result(lines, `127.0.0.1:${loopbackOnly.port}`), lines.join('\n')).toMatchObject({ reached: false });
      expect(result(lines, '169.254.169.254:80')).toMatchObject({ reached: false });
      expect(result(lines, `${lanAddress()}:${onLan.port}`)).toMatchObject({ reached: true });
    } finally {
      await box.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ends a box's pasta when the box is killed (a warm box closed unused, a cancel): none is left running", async () => {
    // a port no other test forwards: it names this box's pasta among the others' (`--tcp-ns <port>`)
    const port = 40_000 + (process.pid % 20_000);
    const pastaOfBox = async () =>
      spawnSync('pgrep', ['-f', `pasta .*--tcp-ns ${port} `])
        .stdout.toString()
        .trim();
    const box = openBox(createSandbox({ mode: 'bwrap', network: 'box', loopbackPorts: [port] }), { mounts: [], cwd: '/' });
    await until(pastaOfBox, (pid) => pid !== '', "the box's pasta to start", 10_000);
    box.close(); // SIGKILL to the box's process group
    await until(pastaOfBox, (pid) => pid === '', "the box's pasta to end", 5_000);
  });

  it('an offline run (git checkout) has only its own loopback, and no pasta', async () => {
    const { lines } = await inBox(
      createSandbox({ mode: 'bwrap', network: 'box' }),
      `ip -br link; ${probeScript([`${lanAddress()}:${onLan.port}`])}`,
      undefined,
      true,
    );
    expect(lines.filter((l) => /^\w+\s+(UP|DOWN|UNKNOWN)/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['lo']);
    expect(result(lines, `${lanAddress()}:${onLan.port}`), lines.join('\n')).toMatchObject({ reached: false });
  });

  it('fails the run with a clear message when its network cannot be started', async () => {
    const { code, lines } = await inBox(sandbox, 'echo RAN', [99999]);
    expect(code).not.toBe(0);
    expect(lines.join('\n')).toMatch(/^\[gantry\] The box's network could not be started: pasta exited with code \d+/m);
    expect(lines).not.toContain('RAN');
  });

  it('GANTRY_BOX_NETWORK=host keeps the host network (the loopback reachable)', async () => {
    const host = createSandbox({ mode: 'bwrap', network: 'host' });
    const { lines } = await inBox(host, probeScript([`127.0.0.1:${loopbackOnly.port}`]));
    expect(result(lines, `127.0.0.1:${loopbackOnly.port}`)).toMatchObject({ reached: true });
  });

  it('says what to install when pasta is missing', () => {
    const missing = createSandbox({ mode: 'bwrap', network: 'box', pastaPath: '/nonexistent/pasta' });
    expect(missing.unavailable).toBe(BOX_NETWORK_MISSING_HELP);
    expect(() => missing.wrap('true', [], { mounts: [], cwd: '/' })).toThrow('apt-get install passt');
    expect(createSandbox({ mode: 'bwrap', network: 'host', pastaPath: '/nonexistent/pasta' }).unavailable).toBeNull();
  });
});

/** `--tcp-ns` of a network forwarding these ports (the option names a box's keeper and pasta among the others'). */
const forwarding = (ports: number[]) => `--tcp-ns ${[...ports].sort((a, b) => a - b).join(',')} `;
/** The network namespaces the pool's keepers hold ready for boxes handed these ports (their holders' `sleep`). */
const keptNamespaces = (ports: number[]) =>
  spawnSync('pgrep', ['-f', `gantry-box-network .*${forwarding(ports)}`])
    .stdout.toString()
    .split('\n')
    .filter(Boolean)
    .flatMap((keeper) => spawnSync('pgrep', ['-P', keeper, '-x', 'sleep']).stdout.toString().split('\n').filter(Boolean))
    .map((holder) => fs.readlinkSync(`/proc/${holder}/ns/net`, { encoding: 'utf8' }));
const pastaOf = (ports: number[]) =>
  spawnSync('pgrep', ['-f', `pasta .*${forwarding(ports)}`])
    .stdout.toString()
    .trim();

describe('a box takes a network made ready for it (the pool of a worker running as root)', { timeout: 60_000 }, () => {
  // a port of its own: it names this test's keepers and pastas among the others'
  const port = 20_000 + (process.pid % 20_000);
  let sandbox: Sandbox;
  beforeAll(() => {
    sandbox = createSandbox({ mode: 'bwrap', network: 'box', loopbackPorts: [port], networkPool: true });
  });
  afterAll(() => sandbox.close());

  const ready = async (ports: number[] = []) => {
    sandbox.warmNetwork(ports);
    await until(
      async () => sandbox.readyNetworks(ports),
      (n) => n === 2,
      'two networks to be ready',
      10_000,
    );
  };

  it('starts in one of the ready namespaces, with the same network as a box of its own', async () => {
    await ready([handed.port]);
    const kept = keptNamespaces([port, handed.port]);
    expect(kept).toHaveLength(2);
    const targets = [`127.0.0.1:${loopbackOnly.port}`, `127.0.0.1:${handed.port}`, `127.0.0.1:${port}`, `${lanAddress()}:${onLan.port}`, '169.254.169.254:80'];
    const { code, lines } = await inBox(
      sandbox,
      `readlink /proc/self/ns/net; ${probeScript(targets)}; ip route del unreachable 169.254.0.0/16 && echo DELETED; ip -br link`,
      [handed.port],
    );
    expect(code, lines.join('\n')).toBe(0);
    expect(kept).toContain(lines[0]);
    expect(result(lines, `127.0.0.1:${loopbackOnly.port}`), lines.join('\n')).toMatchObject({ reached: false });
    expect(result(lines, `127.0.0.1:${handed.port}`)).toMatchObject({ reached: true, text: 'hello from the host' });
    expect(result(lines, `${lanAddress()}:${onLan.port}`)).toMatchObject({ reached: true, text: 'hello from the host' });
    expect(result(lines, '169.254.169.254:80')).toMatchObject({ reached: false });
    expect(result(lines, '169.254.169.254:80')!.ms).toBeLessThan(2000);
    expect(lines.join('\n')).not.toMatch(/DELETED/);
    expect(lines.join('\n')).toMatch(/Operation not permitted/);
    expect(lines.filter((l) => /^\w+@?\w*\s+(UP|DOWN|UNKNOWN)/.test(l)).map((l) => l.split(/[\s@]+/)[0])).toEqual(['lo', 'eth0']);
  });

  it('a namespace serves one box: two boxes at once get two, and a box never reaches what another listens on', async () => {
    await ready();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'box-pool-'));
    fs.chmodSync(dir, 0o755);
    const first = startBoxRunner(sandbox, { mounts: [{ path: dir, writable: true }], cwd: '/' });
    const second = startBoxRunner(sandbox, { mounts: [{ path: dir }], cwd: '/' });
    try {
      const run = async (box: typeof first, script: string) => {
        const lines: string[] = [];
        const file = path.join(dir, `${Math.random()}.sh`);
        fs.writeFileSync(file, script, { mode: 0o644 });
        await box.run(file, { cwd: '/', env: { PATH: '/usr/bin:/bin' }, signal: never, onLine: (l) => lines.push(l) });
        return lines;
      };
      // the first box listens on its own loopback (a port the pool's networks do not forward: pasta holds those), and reaches itself there
      const listening = port + 1;
      fs.writeFileSync(path.join(dir, 'hello.sh'), 'echo hello from a box\n', { mode: 0o755 });
      const own = await run(
        first,
        `readlink /proc/self/ns/net; busybox nc -ll -p ${listening} -e ${dir}/hello.sh & sleep 0.2; ${probeScript([`127.0.0.1:${listening}`])}`,
      );
      expect(result(own, `127.0.0.1:${listening}`), own.join('\n')).toMatchObject({ reached: true, text: 'hello from a box' });
      const other = await run(second, `readlink /proc/self/ns/net; ${probeScript([`127.0.0.1:${listening}`])}`);
      expect(other[0]).not.toBe(own[0]);
      expect(result(other, `127.0.0.1:${listening}`), other.join('\n')).toMatchObject({ reached: false });
    } finally {
      await Promise.all([first.close(), second.close()]);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('ends a network with its box, and every one not taken when the pool closes: no pasta is left', async () => {
    await ready();
    const kept = keptNamespaces([port]);
    const { lines } = await inBox(sandbox, 'readlink /proc/self/ns/net');
    expect(kept).toContain(lines[0]);
    await until(
      async () => keptNamespaces([port]),
      (ns) => !ns.includes(lines[0]!),
      "the box's network to end",
      5_000,
    );
    sandbox.close();
    for (const ports of [[port], [port, handed.port]]) {
      await until(
        async () => pastaOf(ports),
        (pid) => pid === '',
        'every pasta of the pool to end',
        5_000,
      );
      expect(keptNamespaces(ports)).toEqual([]);
    }
  });
});

describe('loopbackPortsOf', () => {
  it('gives the host loopback ports of the URLs a run is handed, and nothing for other hosts', () => {
    expect(loopbackPortsOf('http://127.0.0.1:8080/alice/app.git', 'https://localhost/x', '127.0.0.1:5000', '[::1]:7000', 'http://[::1]/')).toEqual([
      8080, 443, 5000, 7000, 80,
    ]);
    expect(loopbackPortsOf('https://github.com/a/b.git', '192.0.2.2:5000', 'registry.example.com', undefined, '', 'not a url at all')).toEqual([]);
    expect(
      loopbackPortsOf(...urlsIn('provider_installation {\n  network_mirror { url = "http://127.0.0.1:9001/providers/" }\n}\nhost "localhost:9002" {}')),
    ).toEqual([9001]);
  });
});
