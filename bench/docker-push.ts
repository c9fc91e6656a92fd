/**
 * What a docker-push step costs: the step itself (buildah bud + push in the build sandbox, rootless,
 * private vfs storage made and removed each time, auth file, labels) against `buildah bud` +
 * `buildah push` of the same small image by hand on the host (root, vfs storage kept between runs),
 * alternated run by run, to Debian's Distribution registry on 127.0.0.1.
 *   npx tsx bench/docker-push.ts   (BENCH_RUNS, default 8)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startRegistry } from '@gantry/test-support';
import { createSandbox } from '../apps/server/src/integrations/executor/sandbox.js';
import { dockerPush } from '../apps/server/src/modules/builds/docker-push.js';
import type { StepContext } from '../apps/server/src/modules/builds/step-handlers.js';
import { fmt, isMain, table } from './src/load.js';

export async function benchDockerPush(runs = Number(process.env.BENCH_RUNS ?? 8)) {
  const sandbox = createSandbox({ mode: 'bwrap' });
  if (sandbox.unavailable) throw new Error(sandbox.unavailable);
  const registry = await startRegistry({ auth: 'htpasswd' });
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-bench-push-'));
  const workspace = path.join(root, 'ws');
  const scriptsDir = `${workspace}.gantry`;
  const src = path.join(workspace, 'src');
  fs.mkdirSync(src, { recursive: true });
  fs.mkdirSync(scriptsDir);
  fs.writeFileSync(path.join(src, 'Dockerfile'), 'FROM scratch\nCOPY app.bin /app.bin\nLABEL bench=1\n');
  fs.writeFileSync(path.join(src, 'app.bin'), Buffer.alloc(256 * 1024, 7));
  sandbox.handOver(workspace);
  const hand = path.join(root, 'hand');
  fs.mkdirSync(hand);
  const auth = path.join(hand, 'auth.json');
  fs.writeFileSync(
    auth,
    JSON.stringify({ auths: { [registry.host]: { auth: Buffer.from(`${registry.username}:${registry.password}`).toString('base64') } } }),
    { mode: 0o600 },
  );

  const ctx = (i: number) =>
    ({
      build: { id: `bench-${i}`, projectId: 'p', commitSha: 'abcdef0123456789', commitMessage: 'bench', commitAuthor: 'Bench', commitAvatar: '' },
      pipeline: { name: 'bench', repositoryUrl: 'https://example.com/acme/app.git', workDir: '/' },
      step: { name: 'Push', type: 'docker-push', config: { image_name: 'bench', tag: `step-${i}` } },
      workspace,
      scriptsDir,
      sandbox,
      signal: new AbortController().signal,
      log: () => undefined,
      env: {},
      resolve: (s: string) => s,
      resolveCommand: (s: string) => s,
      registries: {
        pushTarget: async () => ({
          registryName: 'local',
          provider: 'DockerRegistryV2' as const,
          host: registry.host,
          repositoryPrefix: 'acme',
          username: registry.username,
          password: registry.password,
          tls: false,
        }),
        registryScan: async () => null,
      },
      store: { updateStep: async () => undefined },
      addSecret: () => undefined,
      warnServer: () => undefined,
    }) as unknown as StepContext;

  const buildah = (...args: string[]) =>
    execFileSync('buildah', ['--root', path.join(hand, 'storage'), '--runroot', path.join(hand, 'run'), '--storage-driver', 'vfs', ...args], {
      stdio: 'ignore',
      env: { PATH: '/usr/bin:/bin', HOME: hand, BUILDAH_ISOLATION: 'chroot' },
    });
  const step: number[] = [];
  const byHand: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      let t0 = performance.now();
      await dockerPush(ctx(i));
      step.push(performance.now() - t0);
      t0 = performance.now();
      buildah(
        'bud',
        '--isolation',
        'chroot',
        '--format',
        'docker',
        '--file',
        path.join(src, 'Dockerfile'),
        '--tag',
        `localhost/hand:${i}`,
        '--label',
        'bench=1',
        src,
      );
      buildah('push', '--authfile', auth, '--tls-verify=false', `localhost/hand:${i}`, `docker://${registry.host}/acme/hand:${i}`);
      byHand.push(performance.now() - t0);
    }
  } finally {
    await registry.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  const stats = (a: number[]) => {
    const s = [...a].sort((x, y) => x - y);
    return { median: s[Math.floor(s.length / 2)]!, min: s[0]!, max: s.at(-1)! };
  };
  return { step: stats(step), byHand: stats(byHand), runs };
}

export function printDockerPush(r: Awaited<ReturnType<typeof benchDockerPush>>) {
  const ms = (x: { median: number; min: number; max: number }) => `${fmt(x.median, 0)} ms (${fmt(x.min, 0)}–${fmt(x.max, 0)})`;
  table([
    { run: 'docker-push step (sandbox, fresh storage)', 'median (min–max)': ms(r.step) },
    { run: 'buildah bud + push by hand (host)', 'median (min–max)': ms(r.byHand) },
    { run: 'step overhead', 'median (min–max)': `${fmt(r.step.median - r.byHand.median, 0)} ms` },
  ]);
}

if (isMain(import.meta.url)) printDockerPush(await benchDockerPush());
