import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALING_DEFAULTS } from '@gantry/contracts';
import { startKubeStandin, type KubeStandin } from '@gantry/test-support';
import { until } from '../../../test/helpers.js';
import { buildManifests, FIELD_MANAGER } from './services.manifests.js';

/**
 * What a deploy applies, applied by kubectl itself (`apply --server-side --field-manager=gantry`) to the stand-in: the
 * manifests are objects a real API server takes, and kubectl reads back the Deployment, Service, HPA and secrets
 * Gantry made (kubectl runs as a child process: the stand-in answers from this same event loop).
 */
let k: KubeStandin;
let dir: string;
const kubectl = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile('kubectl', ['--kubeconfig', path.join(dir, 'kubeconfig'), ...args], { timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    ),
  );

beforeAll(async () => {
  k = await startKubeStandin({ nodes: 1, tickMs: 30, namespaces: ['team-a'] });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-kubectl-'));
  fs.writeFileSync(path.join(dir, 'kubeconfig'), k.kubeconfig({ namespace: 'team-a' }));
});
afterAll(async () => {
  await k?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('service manifests through kubectl', () => {
  it('kubectl applies them server-side as field manager gantry and reads them back', async () => {
    const m = buildManifests(
      {
        serviceName: 'shop.api',
        namespace: 'team-a',
        image: 'registry.local:5000/shop/api:1.2.3',
        version: '1.2.3',
        commit: null,
        isPublic: false,
        registry: 'harbor',
        imageRepository: 'shop/api',
        autoScaling: { ...SCALING_DEFAULTS, minReplicas: 2, maxReplicas: 4 },
        env: [
          { key: 'MODE', value: 'prod', sensitive: false },
          { key: 'TOKEN', value: 't0ken', sensitive: true },
        ],
        schema: { port: 8080 },
        pull: { host: 'registry.local:5000', username: 'robot', password: 'pw' },
        deployedAt: '2026-11-22T10:00:00.000Z',
      },
      null,
    );
    // one file per object in a folder, in the order deploy applies them
    const file = path.join(dir, 'objects');
    fs.mkdirSync(file);
    [m.pullSecret, m.inputsSecret, m.deployment, m.service, m.hpa].forEach((o, i) =>
      fs.writeFileSync(path.join(file, `${i + 1}-${o!.kind}.json`), JSON.stringify(o)),
    );
    const applied = await kubectl(['apply', '--server-side', `--field-manager=${FIELD_MANAGER}`, '-f', file]);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim().split('\n')).toEqual([
      'secret/shop-api-registry serverside-applied',
      'secret/shop-api-inputs serverside-applied',
      'deployment.apps/shop-api serverside-applied',
      'service/shop-api serverside-applied',
      'horizontalpodautoscaler.autoscaling/shop-api serverside-applied',
    ]);
    await until(
      async () => JSON.parse((await kubectl(['get', 'deployment', 'shop-api', '-o', 'json'])).stdout).status?.availableReplicas ?? 0,
      (n) => n === 2,
      'two available replicas',
    );
    const got = JSON.parse(
      (await kubectl(['get', 'deployment,service,hpa,secret', '-l', 'app.kubernetes.io/managed-by=gantry', '-o', 'json', '--show-managed-fields'])).stdout,
    );
    expect(got.items.map((o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'Deployment/shop-api',
      'HorizontalPodAutoscaler/shop-api',
      'Secret/shop-api-inputs',
      'Secret/shop-api-registry',
      'Service/shop-api',
    ]);
    const hpa = got.items.find((o: { kind: string }) => o.kind === 'HorizontalPodAutoscaler');
    expect(hpa.apiVersion).toBe('autoscaling/v2');
    expect(hpa.spec.metrics).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
      { type: 'Resource', resource: { name: 'memory', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    const d = got.items.find((o: { kind: string }) => o.kind === 'Deployment');
    expect(d.metadata.managedFields.map((f: { manager: string; operation: string }) => `${f.manager}:${f.operation}`)).toContain('gantry:Apply');
    const pods = await kubectl(['get', 'pods', '-l', 'gantry.io/service=shop-api', '--no-headers']);
    expect(pods.stdout.trim().split('\n')).toHaveLength(2);
    const pull = JSON.parse((await kubectl(['get', 'secret', 'shop-api-registry', '-o', 'json'])).stdout);
    expect(pull.type).toBe('kubernetes.io/dockerconfigjson');
  });
});
