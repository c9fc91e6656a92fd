/**
 * The Kubernetes dashboard trial in headless Chromium: a free-plan project whose first subscription started more than
 * 30 days ago (moved back in the database, which is PostgreSQL here so the test can reach it while the server runs)
 * opens its cluster's dashboard and sees the trial-expired page with Upgrade Now!; the clusters list and the other
 * areas still work.
 */
import { afterAll, describe, test } from 'vitest';
import pg from 'pg';
import { KUBERNETES_TRIAL_DAYS } from '@gantry/contracts';
import { startKubeStandin, startPostgres } from '@gantry/test-support';
import path from 'node:path';
import { artifactsDir, logInAndOpenProject, useStack, verifiedUser } from './src/harness.js';

const k = await startKubeStandin();
const postgres = await startPostgres();
afterAll(async () => {
  await k.close();
  postgres.stop();
});

/** Moves the project's subscriptions (its free trial) back by `days`. */
async function moveTrialBack(projectId: string, days: number) {
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  try {
    const moved = await client.query(
      `update subscriptions set start_date = start_date - make_interval(days => $2), expiration_date = expiration_date - make_interval(days => $2) where project_id = $1`,
      [projectId, days],
    );
    if (!moved.rowCount) throw new Error('the project has no subscription to move back');
  } finally {
    await client.end();
  }
}

describe('the Kubernetes dashboard trial', () => {
  const stack = useStack({
    env: { DATABASE_URL: postgres.url },
    expectedConsoleErrors: [
      // the expired trial: the dashboard learns it from its cluster status' 402, and shows the trial-expired page
      { match: /status of 402 .*\(\/ms-kube\/projects\/[^/]+\/kubernetes\/edge\/status\)$/, why: 'the Kubernetes trial has expired' },
    ],
  });
  const email = 'tess.trial@example.com';
  const password = 'TrialOver1234';

  test('a free project past its 30 days sees the trial-expired page on the dashboard; the list and other areas still work', async () => {
    const idToken = await verifiedUser(stack, { email, password, firstName: 'Tess', lastName: 'Trial' });
    await stack.api('POST', '/ms-project/projects', { name: 'Lapsed', description: 'Trial' }, idToken);
    const projectId: string = (await stack.api('GET', '/ms-project/projects', undefined, idToken)).projects[0].id;
    await stack.api(
      'POST',
      `/ms-kube/projects/${projectId}/kubernetes`,
      { name: 'edge', endpoint: k.url, apiToken: k.adminToken, type: 'personal', caCertificate: k.caPem },
      idToken,
    );
    await moveTrialBack(projectId, KUBERNETES_TRIAL_DAYS + 1);

    const page = await stack.newPage();
    await logInAndOpenProject(page, email, password, 'Lapsed');
    await page.goto('/kubernetes/clusters/edge');
    const expired = page.getByTestId('cluster-trial-expired');
    await expired.getByText('Your Kubernetes dashboard trial has expired').waitFor();
    await expired.getByRole('link', { name: 'Upgrade Now!', exact: true }).waitFor();
    await page.screenshot({ path: path.join(artifactsDir, 'cluster-trial-expired.png'), fullPage: true }).catch(() => undefined);
    // nothing of the dashboard behind it, and no Deploy Service
    await page.getByRole('heading', { name: 'edge', exact: true }).waitFor();
    if ((await page.getByTestId('running-pods').count()) || (await page.getByRole('button', { name: 'Deploy Service', exact: true }).count()))
      throw new Error('the dashboard is shown behind the trial-expired page');

    // the clusters list still lists it, and other areas still open
    await page.getByRole('link', { name: 'Back to clusters', exact: true }).click();
    await page.getByRole('heading', { name: 'Kubernetes Clusters', exact: true }).waitFor();
    await page.getByText('edge', { exact: true }).first().waitFor();
    await page.goto('/pipelines');
    await page.getByRole('heading', { name: 'Pipelines', exact: true }).waitFor();
  });
});
