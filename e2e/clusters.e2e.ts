/**
 * Kubernetes clusters in headless Chromium (issue 11, first slice): a user connects the Kubernetes
 * stand-in (test-support's startKubeStandin: HTTPS with a private CA, 3 nodes, a deployment of 2 pods
 * and one failed pod) through the Connect modal with endpoint, token and CA; sees it listed with its
 * nodes and pods; opens its dashboard (3/3 nodes, pods, deployments, API URL, version, utilization,
 * the namespace tab; the metrics server switched off shows the honest "no metrics" card on the next poll);
 * edits it (name locked, token shown as '(sensitive)' and kept) and removes it after the confirmation
 * that says it cannot be undone.
 */
import https from 'node:https';
import { afterAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { clusterMessages } from '@gantry/contracts';
import { startKubeStandin } from '@gantry/test-support';
import { logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';
import { crowdedFactLabels, cutLabels, textLines } from './src/ui.js';

const k = await startKubeStandin({ namespaces: ['team-a'] });
afterAll(() => k.close());

/** A POST to the stand-in's API, as kubectl would (its CA, the admin token). */
function kubePost(path: string, body: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${k.url}${path}`,
      { method: 'POST', ca: k.caPem, headers: { authorization: `Bearer ${k.adminToken}`, 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const deployment = (name: string, replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'team-a' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name, image: 'nginx:1.27' }] } },
  },
});
expect(await kubePost('/apis/apps/v1/namespaces/team-a/deployments', deployment('web', 2))).toBe(201);
await k.settle();
// A standalone pod that fails (phase Failed): the dashboard shows it red.
expect(
  await kubePost('/api/v1/namespaces/team-a/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'one-off', namespace: 'team-a' },
    spec: { containers: [{ name: 'job', image: 'busybox' }] },
  }),
).toBe(201);
await k.settle();
k.failPod('team-a', 'one-off', { crashLoop: false, reason: 'Error', message: 'exit code 1' });
await k.settle();

// The nodes at 1.5 % of their allocatable CPU and 2 % of their memory: small shares, which the rings drew as a dot.
for (const node of k.list('nodes')) {
  const alloc = node.status.allocatable;
  k.setNodeMetrics(node.metadata.name, { cpu: `${parseInt(alloc.cpu, 10) * 0.015}m`, memory: `${Math.round(parseInt(alloc.memory, 10) * 0.02)}Ki` });
}

const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });
const LIST = '/kubernetes/clusters';
const podsOf = (phase: string) => k.list('pods').filter((p) => p.status?.phase === phase).length;

describe('kubernetes clusters', () => {
  const stack = useStack({ expectedConsoleErrors: [] });
  let page: Page;
  const email = 'kira.kube@example.com';
  const password = 'Clusters1234';

  test('a cluster is connected with endpoint, token and CA, validated on submit, and listed with its nodes and pods', async () => {
    const idToken = await verifiedUser(stack, { email, password, firstName: 'Kira', lastName: 'Kube' });
    await stack.api('POST', '/ms-project/projects', { name: 'Harbor', description: 'Clusters' }, idToken);
    page = await stack.newPage({ keep: true });
    await logInAndOpenProject(page, email, password, 'Harbor');

    await page.goto(LIST);
    await page.getByRole('heading', { name: 'Kubernetes Clusters', exact: true }).waitFor();
    await page.getByText('No Kubernetes clusters yet').waitFor();
    await page.getByRole('button', { name: 'Connect Kubernetes' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Connect Kubernetes').waitFor();

    // Validation runs on submit, with the contracts' messages.
    await dialog.getByRole('button', { name: 'Connect Cluster' }).click();
    await dialog.getByText(clusterMessages.nameRequired).waitFor();
    await dialog.getByText(clusterMessages.endpointRequired).waitFor();
    await dialog.getByText(clusterMessages.tokenRequired).waitFor();
    // The API token (a password field) is written as large as the fields around it: it read 16 px beside their 14 px
    // (its placeholder visibly larger, seen on the walk at 1280×800 and 1099×700).
    const fontSize = (field: ReturnType<Page['getByLabel']>) => field.evaluate((el) => getComputedStyle(el).fontSize);
    expect(await fontSize(dialog.getByLabel('API token'))).toBe(await fontSize(dialog.getByRole('textbox', { name: 'API server endpoint' })));
    await page.screenshot({ path: 'e2e/.artifacts/cluster-connect-fields.png' });

    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Stand_In');
    await dialog.getByRole('textbox', { name: 'API server endpoint' }).fill(`  ${k.url}  `);
    await dialog.getByLabel('API token').fill(` ${k.adminToken} `);
    await dialog.getByRole('textbox', { name: 'CA certificate' }).fill(k.caPem);
    await dialog.getByRole('switch', { name: 'Associate a namespace' }).check({ force: true });
    await dialog.getByRole('textbox', { name: 'Namespace' }).fill('abc');
    await dialog.getByRole('button', { name: 'Connect Cluster' }).click();
    await dialog.getByText(clusterMessages.nameRule).waitFor();
    await dialog.getByText(clusterMessages.namespaceRule).waitFor();

    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('standin');
    await dialog.getByRole('textbox', { name: 'Namespace' }).fill('team-a');
    await dialog.getByRole('button', { name: 'Connect Cluster' }).click();
    await toast(page, clusterMessages.created('standin')).waitFor();
    await dialog.waitFor({ state: 'detached' });

    const row = page.getByTestId('clusters-table').getByRole('row').filter({ hasText: 'standin' });
    await row.getByTestId('cluster-name').waitFor();
    expect(await row.getByTestId('cluster-endpoint').textContent()).toBe(k.url);
    expect(await row.getByTestId('cluster-namespace').textContent()).toBe('team-a');
    await row.getByText('personal').waitFor();
    // its type badge keeps its whole word (with the side menu beside the page it read 'per…' in its 110 px column)
    await page.setViewportSize({ width: 1280, height: 900 });
    await expect.poll(() => cutLabels(row)).toEqual([]);
    await page.setViewportSize({ width: 1366, height: 900 });
    await expect.poll(() => row.getByTestId('cluster-nodes').textContent()).toBe('3/3 nodes');
    expect(await row.getByTestId('cluster-pods').textContent()).toBe(`${podsOf('Running')}/${k.list('pods').length} pods running`);
  });

  test('the dashboard shows the header figures, utilization and the namespace tabs', async () => {
    await page.getByTestId('clusters-table').getByRole('link', { name: 'standin' }).click();
    await page.waitForURL(`**${LIST}/standin`);
    await page.getByRole('heading', { name: 'standin', exact: true }).waitFor();

    const header = page.getByTestId('cluster-header');
    await expect.poll(() => header.getByTestId('nodes').textContent()).toBe('3/3');
    expect(await header.getByTestId('running-pods').textContent()).toBe(String(podsOf('Running')));
    expect(await header.getByTestId('pending-pods').textContent()).toBe('0');
    expect(await header.getByTestId('failed-pods').textContent()).toBe('1');
    // Failed above 0 is red; pending at 0 is not yellow.
    expect(await header.getByTestId('failed-pods').evaluate((el) => (el as HTMLElement).style.color)).toContain('red');
    expect(await header.getByTestId('pending-pods').evaluate((el) => (el as HTMLElement).style.color)).not.toContain('yellow');
    expect(await header.getByTestId('deployments').textContent()).toBe('1/1');
    expect(await header.getByTestId('api-url').getAttribute('href')).toBe(k.url);
    expect(await header.getByTestId('k8s-version').textContent()).toBe('v1.30.0-gantry-standin');

    // The stand-in serves metrics.k8s.io: two rings with 2-decimal percentages.
    await expect.poll(() => page.getByTestId('cpu-utilization').textContent()).toMatch(/^\d+(\.\d{1,2})?%$/);
    expect(await page.getByTestId('memory-utilization').textContent()).toMatch(/^\d+(\.\d{1,2})?%$/);
    // A small share draws as a small arc: each ring's arc, with its ends, is as long as its figure (at 1.5 % and 2 % the
    // round caps added 14 px, 3 % of the circle, and the arc read as a round dot at the top).
    for (const [id, figure] of [
      ['cpu-utilization', 1.5],
      ['memory-utilization', 2],
    ] as const) {
      expect(await page.getByTestId(id).textContent()).toBe(`${figure}%`);
      const drawn = await page.getByTestId(id).evaluate((label) => {
        const arc = label.closest('.mantine-RingProgress-root')!.querySelectorAll('svg circle')[1] as SVGCircleElement;
        const style = getComputedStyle(arc);
        const caps = style.strokeLinecap === 'butt' ? 0 : parseFloat(style.strokeWidth);
        return ((parseFloat(style.strokeDasharray) + caps) / (2 * Math.PI * arc.r.baseVal.value)) * 100;
      });
      expect(drawn, `${id}: the arc's share of the circle`).toBeCloseTo(figure, 1);
    }
    await page
      .getByTestId('cpu-utilization')
      .locator('xpath=ancestor::div[contains(@class, "mantine-Card-root")][1]/..')
      .screenshot({ path: 'e2e/.artifacts/cluster-rings-small.png' });
    // Each pie's labels lie whole on the pie: white on a slice, a label past the pie's edge lost its ends on the page
    // (the Pods pie's third at the left read 'iled 33.33%', its two thirds 'Ready 66.67').
    for (const chart of ['deployments-chart', 'pods-chart']) {
      const outside = await page
        .getByTestId(chart)
        .locator('svg')
        .evaluate((svg) => {
          const size = (svg as unknown as SVGSVGElement).viewBox.baseVal.width;
          // the pie's radius: half the width its slices cover together
          const boxes = Array.from(svg.querySelectorAll('path')).map((p) => p.getBBox());
          const r = (Math.max(...boxes.map((b) => b.x + b.width)) - Math.min(...boxes.map((b) => b.x))) / 2;
          return Array.from(svg.querySelectorAll('text')).flatMap((t) => {
            const b = (t as SVGTextElement).getBBox();
            const corners = [
              [b.x, b.y],
              [b.x + b.width, b.y],
              [b.x, b.y + b.height],
              [b.x + b.width, b.y + b.height],
            ];
            return corners.some(([x, y]) => Math.hypot(x! - size / 2, y! - size / 2) > r + 0.5) ? [t.textContent] : [];
          });
        });
      expect(outside, `${chart}: labels past the pie's edge`).toEqual([]);
    }

    // Associated with team-a: Gantry works only there, so that is the one tab, selected.
    const namespaces = page.getByTestId('namespaces-card');
    await namespaces.getByRole('tab', { name: 'team-a' }).waitFor();
    expect(await namespaces.getByRole('tab').count()).toBe(1);
    expect(await namespaces.getByRole('tab', { name: 'team-a' }).getAttribute('aria-selected')).toBe('true');
    await namespaces.getByText('No deployment information available').waitFor();

    // The facts take their columns from the card's width (container queries): with the side menu beside the page (1280)
    // or in a drawer (1099), no label wraps or is cut.
    for (const width of [1280, 1099]) {
      await page.setViewportSize({ width, height: 900 });
      await expect.poll(() => crowdedFactLabels(header), { message: `${width} px` }).toEqual([]);
      // the services table's headers each on one line ('Last Deployed' broke after 'Last', seen on the walk)
      for (const th of await namespaces.getByRole('columnheader').all()) {
        expect(await textLines(th.locator('p')), `${await th.innerText()} at ${width} px`).toBe(1);
      }
      await page.screenshot({ path: `e2e/.artifacts/cluster-header-${width}.png` });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  });

  test('without a metrics server the dashboard says so on its next poll, instead of made-up figures', { timeout: 60_000 }, async () => {
    k.setMetricsEnabled(false);
    await page.getByTestId('no-metrics').getByText('No metrics server in this cluster: CPU and memory are not available').waitFor({ timeout: 25_000 });
    expect(await page.getByTestId('cpu-utilization').count()).toBe(0);
    k.setMetricsEnabled(true);
  });

  test('editing locks the name and keeps the token shown as (sensitive)', async () => {
    await page.goto(LIST);
    await page.getByRole('button', { name: 'Edit cluster standin' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Edit Kubernetes cluster').waitFor();
    const name = dialog.getByRole('textbox', { name: 'Name', exact: true });
    expect(await name.inputValue()).toBe('standin');
    expect(await name.isDisabled()).toBe(true);
    const token = dialog.getByLabel('API token');
    expect(await token.getAttribute('placeholder')).toBe('(sensitive)');
    expect(await token.inputValue()).toBe('');
    expect(await dialog.getByRole('textbox', { name: 'API server endpoint' }).inputValue()).toBe(k.url);
    expect(await dialog.getByRole('textbox', { name: 'Namespace' }).inputValue()).toBe('team-a');

    // Switching the namespace off: it is not sent any more.
    await dialog.getByRole('switch', { name: 'Associate a namespace' }).uncheck({ force: true });
    await dialog.getByRole('button', { name: 'Update Cluster' }).click();
    await toast(page, clusterMessages.updated('standin')).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The kept token still reaches the cluster.
    const row = page.getByTestId('clusters-table').getByRole('row').filter({ hasText: 'standin' });
    await expect.poll(() => row.getByTestId('cluster-nodes').textContent()).toBe('3/3 nodes');
    expect(await row.getByTestId('cluster-namespace').count()).toBe(0);

    // Without an associated namespace the dashboard has a tab per namespace of the cluster, the first selected.
    await page.getByTestId('clusters-table').getByRole('link', { name: 'standin' }).click();
    const namespaces = page.getByTestId('namespaces-card');
    for (const ns of ['default', 'kube-system', 'team-a']) await namespaces.getByRole('tab', { name: ns, exact: true }).waitFor();
    expect(await namespaces.getByRole('tab').first().getAttribute('aria-selected')).toBe('true');
    await namespaces.getByRole('tab', { name: 'kube-system' }).click();
    await namespaces.getByText('No deployment information available').waitFor();
    await page.goto(LIST);
  });

  test('remove asks for a confirmation that says it cannot be undone', async () => {
    await page.getByRole('button', { name: 'Remove cluster standin' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/This action cannot be undone/).waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await toast(page, clusterMessages.deleted('standin')).waitFor();
    await page.getByText('No Kubernetes clusters yet').waitFor();
  });
});
