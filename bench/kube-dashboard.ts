/**
 * Cluster dashboard load: the time to the first full answer of what the dashboard asks for when it opens (the cluster
 * status, which carries the services table rows, and the namespaces, in parallel, as the page does), through real Gantry (PGlite) and
 * the real Kubernetes adapter, against the Kubernetes stand-in seeded with 50 nodes / 2,000 pods / 300 deployments
 * (every deployment a Gantry service), and against one 10× smaller. Median and min–max over BENCH_RUNS runs each.
 *   npx tsx bench/kube-dashboard.ts   (BENCH_RUNS, default 9)
 */
import { startKubeStandin, type KubeStandin } from '@gantry/test-support';
import { startBenchGantry } from './src/bench-gantry.js';
import { fmtSpread, isMain, spread, table, type Spread } from './src/load.js';
import { apiCaller, benchProject } from './src/bench-project.js';

export interface KubeDashboardResult {
  size: string;
  ms: Spread;
  rows: number;
}

export async function benchKubeDashboard(runs = Number(process.env.BENCH_RUNS ?? 9)): Promise<KubeDashboardResult[]> {
  const sizes = [
    { size: '50 nodes / 2,000 pods / 300 deployments', seed: { nodes: 50, pods: 2000, deployments: 300, asGantryServices: true } },
    { size: '5 nodes / 200 pods / 30 deployments', seed: { nodes: 5, pods: 200, deployments: 30, asGantryServices: true } },
  ];
  const clusters: KubeStandin[] = [];
  const gantry = await startBenchGantry('kube', {
    OUTBOUND_NETWORK: 'any',
  });
  const call = apiCaller(gantry.url);
  try {
    const { idToken, projectId } = await benchProject(call, () => gantry.app.services.mailer.outbox());
    const out: KubeDashboardResult[] = [];
    for (const [i, s] of sizes.entries()) {
      const k = await startKubeStandin({ seed: s.seed });
      clusters.push(k);
      const name = `bench-${i + 1}`;
      await call(
        'POST',
        `/ms-kube/projects/${projectId}/kubernetes`,
        { name, endpoint: k.url, apiToken: k.adminToken, caCertificate: k.caPem, type: 'personal' },
        idToken,
      );
      const base = `/ms-kube/projects/${projectId}/kubernetes/${name}`;
      const load = async () => {
        const t0 = performance.now();
        const [status] = await Promise.all([call('GET', `${base}/status`, undefined, idToken), call('GET', `${base}/namespaces`, undefined, idToken)]);
        const ms = performance.now() - t0;
        if (status.podStatus.totalPods !== s.seed.pods) throw new Error(`expected ${s.seed.pods} pods, got ${status.podStatus.totalPods}`);
        if (status.microservicesStatus.length !== s.seed.deployments)
          throw new Error(`expected ${s.seed.deployments} rows, got ${status.microservicesStatus.length}`);
        return ms;
      };
      await load(); // warm-up: connections, JIT
      const times: number[] = [];
      for (let r = 0; r < runs; r++) times.push(await load());
      out.push({ size: s.size, ms: spread(times), rows: s.seed.deployments });
    }
    return out;
  } finally {
    await gantry.close();
    for (const k of clusters) await k.close();
  }
}

if (isMain(import.meta.url)) {
  const results = await benchKubeDashboard();
  table(results.map((r) => ({ cluster: r.size, 'dashboard load ms, median (min–max)': fmtSpread(r.ms, 1), 'service rows': r.rows })));
  const [big, small] = results;
  console.log(`growth for 10× the objects: ${(big!.ms.median / small!.ms.median).toFixed(2)}× the median time`);
  process.exit(0);
}
