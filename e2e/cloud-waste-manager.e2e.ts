/**
 * The Cloud Waste Manager end to end in headless Chromium (issue 12), on a project the instance admin put on the
 * Professional plan (/admin/plans): an AWS account connected through STS (stand-in) whose EC2, Auto Scaling, ELB,
 * RDS, CloudWatch, Pricing and Cost Explorer answers come from the AWS stand-in (AWS_ENDPOINT_URL_<SERVICE>) →
 * the side menu's Cloud Waste Manager section → Waste Advisor results → a saving schedule from the account's
 * resources (tagged in the stand-in), disabled and enabled, Stop All / Start All → an environment's saving
 * schedule and its Stop All / Start All changing the stand-in's instances.
 */
import { afterAll, describe, expect, test } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { WEEKDAYS, COST_TAG_KEY, ENVIRONMENT_TAG_KEY, scheduleActionToast, scheduleStateToast, type Weekday } from '@gantry/contracts';
import { seedWasteWorld, startAwsStandin } from '@gantry/test-support';
import { useAwsStandin } from './src/aws-standin.js';
import { useStack, verifiedUser } from './src/harness.js';
import { choose, expectFactsFit } from './src/ui.js';

const aws = await startAwsStandin({ world: seedWasteWorld({}) });
const sts = await useAwsStandin({ region: 'eu-west-1', env: aws.env() });
afterAll(() => aws.close());

const ACCOUNT = '123456789012';
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text }).last();
const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/.artifacts/cwm-${name}.png`, fullPage: true });
const instance = (id: string) => aws.world.instances.find((i) => i.id === id)!;
const db = (id: string) => aws.world.dbs.find((d) => d.id === id)!;
const world = () => {
  const g = aws.world.asgs.find((x) => x.name === 'workers')!;
  return {
    busy: instance('i-0a00000000000busy').state,
    workers: `${g.desiredCapacity}/${g.minSize}/${g.maxSize}`,
    ordersDb: db('orders-db').status,
    idle: instance('i-0a00000000000idle').state,
  };
};
/** The weekday three days ahead: a schedule on it neither starts nor stops anything while the test runs. */
const quietDay = (): Weekday => WEEKDAYS[(new Date().getDay() + 6 + 3) % 7]!;

/** Only the quiet day checked in a ScheduleTimeFields. */
async function onlyQuietDay(scope: Locator) {
  const label: Record<Weekday, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };
  for (const d of WEEKDAYS) {
    const box = scope.getByRole('checkbox', { name: label[d], exact: true });
    if ((await box.isChecked()) !== (d === quietDay())) await box.click();
  }
}

describe('cloud waste manager on a paid plan', () => {
  const stack = useStack({ expectedConsoleErrors: [] });
  const owner = { email: 'wendy.waste@example.com', password: 'Savings1234', firstName: 'Wendy', lastName: 'Waste' };
  let page: Page;

  test('the instance admin puts the project on Professional; an AWS account is connected; the side menu shows the Cloud Waste Manager', async () => {
    // the first account of the instance is its admin, here also the project's owner
    const idToken = await verifiedUser(stack, owner);
    await stack.api('POST', '/ms-project/projects', { name: 'Thrift', description: 'Saves money' }, idToken);

    page = await stack.newPage({ keep: true });
    await page.goto('/login');
    await page.getByLabel('Username').fill(owner.email);
    await page.getByLabel('Password', { exact: true }).fill(owner.password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await page.waitForURL('**/projects');
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Project plans', exact: true }).click();
    await page.waitForURL('**/admin/plans');
    const row = page.getByTestId('admin-projects').getByRole('row').filter({ hasText: 'Thrift' });
    await row.getByRole('textbox', { name: 'Plan of Thrift', exact: true }).click();
    await page.getByRole('option', { name: 'Professional', exact: true }).click();
    await toast(page, 'Thrift is now on the Professional plan').waitFor();

    await page.goto('/projects');
    await page.getByRole('button', { name: 'Open project Thrift', exact: true }).click();
    await page.waitForURL('**/overview');
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByText('Cloud Waste Manager', { exact: true }).waitFor();

    await page.goto('/settings?tab=accounts');
    await page.getByRole('button', { name: 'Connect Cloud Account', exact: true }).click();
    await page.getByRole('menuitem', { name: /AWS/ }).first().click();
    await page.getByRole('textbox', { name: 'Account name', exact: true }).fill('production');
    await page.getByRole('textbox', { name: 'IAM role ARN', exact: true }).fill(`arn:aws:iam::${ACCOUNT}:role/GantryCostOptimizer`);
    await page.getByRole('textbox', { name: 'External ID', exact: true }).fill('ext-thrift');
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await toast(page, 'You have successfully connected your AWS account.').waitFor();
    expect(sts.requests.at(-1)!.params).toMatchObject({ Action: 'AssumeRole', ExternalId: 'ext-thrift' });
  });

  test('Waste Advisor: account and region, Get statistics, the three cards with the stand-in account judged', async () => {
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    // the section is open from the start
    await menu.getByRole('link', { name: 'Waste Advisor', exact: true }).click();
    await page.waitForURL('**/tools/advisor');
    const get = page.getByRole('button', { name: 'Get statistics', exact: true });
    expect(await get.isDisabled()).toBe(true);
    await choose(page, page.getByRole('textbox', { name: 'AWS Account', exact: true }), `production (${ACCOUNT})`);
    expect(await get.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Region', exact: true }).fill('eu-west-1');
    await page.getByRole('option', { name: 'eu-west-1', exact: true }).click();
    await get.click();

    const expected = {
      ec2: '2 of 4 EC2 instances have low average daily utilization',
      classicElb: '1 classic load balancers appear idle',
      nonClassicElb: '2 application, network and gateway load balancers appear idle',
      rds: '1 of 2 DB instances appear idle',
    };
    await expect.poll(() => page.getByTestId('advisor-ec2-summary').textContent(), { timeout: 30_000 }).toBe(expected.ec2);
    expect(await page.getByTestId('advisor-classic-summary').textContent()).toBe(expected.classicElb);
    expect(await page.getByTestId('advisor-nonclassic-summary').textContent()).toBe(expected.nonClassicElb);
    expect(await page.getByTestId('advisor-rds-summary').textContent()).toBe(expected.rds);
    await page.getByTestId('advisor-ec2').getByText('web-idle', { exact: true }).waitFor();
    await page.getByTestId('advisor-elb').getByText('legacy-web', { exact: true }).waitFor();
    await page.getByTestId('advisor-rds').getByText('shop-db', { exact: true }).waitFor();
    await expect.poll(() => page.getByTestId('advisor-age').textContent()).toMatch(/^production · eu-west-1 · fetched /);
    expect(aws.calls.some((c) => c.service === 'monitoring' && c.action === 'GetMetricData')).toBe(true);
    await shot(page, 'advisor');
  });

  test('Saving schedules: created from the account resources (tagged in AWS), ACTIVE, disabled and enabled, Stop All / Start All', async () => {
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Saving Schedules', exact: true }).click();
    await page.waitForURL('**/tools/schedules');
    await page.getByText('No saving schedules yet', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create Schedule', exact: true }).click();
    await page.waitForURL('**/tools/schedules/create');

    await page.getByRole('textbox', { name: 'Schedule name', exact: true }).fill('office hours');
    await onlyQuietDay(page.locator('form'));
    await choose(page, page.getByRole('textbox', { name: 'AWS Account', exact: true }), `production (${ACCOUNT})`);
    await page.getByRole('textbox', { name: 'Region', exact: true }).fill('eu-west-1');
    await page.getByRole('option', { name: 'eu-west-1', exact: true }).click();
    const picker = page.getByTestId('resource-picker');
    await expect.poll(() => picker.getByTestId('resource-row').count(), { timeout: 30_000 }).toBe(7);
    for (const name of ['batch', 'workers', 'orders-db']) await picker.getByRole('checkbox', { name: `Select ${name}`, exact: true }).check();
    await expect.poll(() => page.getByTestId('selected-count').textContent()).toBe('3 selected');
    await shot(page, 'schedule-form');
    await expectFactsFit(page, page.getByTestId('savings-estimate'), 'savings-estimate');
    await page.getByRole('button', { name: 'Create Schedule', exact: true }).click();
    await toast(page, 'Created schedule office hours.').waitFor();
    await page.waitForURL('**/tools/schedules');

    const row = page.getByTestId('schedules-table').getByRole('row').filter({ hasText: 'office hours' });
    await expect.poll(() => row.getByTestId('schedule-state').textContent()).toBe('ACTIVE');
    await row.getByText('Picked resources', { exact: true }).waitFor();
    const tag = instance('i-0a00000000000busy').tags[COST_TAG_KEY];
    expect(await row.getByTestId('schedule-tag').textContent()).toBe(`${COST_TAG_KEY} = ${tag}`);
    expect(aws.world.asgs.find((g) => g.name === 'workers')!.tags[COST_TAG_KEY]).toBe(tag);
    expect(db('orders-db').tags[COST_TAG_KEY]).toBe(tag);
    expect(instance('i-0a00000000000idle').tags[COST_TAG_KEY]).toBeUndefined();
    await shot(page, 'schedules');

    // a Mantine switch's input sits hidden under its track: click the label around both, as a person does
    const flip = (name: string) => row.getByRole('switch', { name, exact: true }).locator('xpath=..').click();
    await flip('Disable schedule office hours');
    await page.getByRole('button', { name: 'Disable only', exact: true }).click();
    await toast(page, scheduleStateToast('DISABLED')).waitFor();
    await expect.poll(() => row.getByTestId('schedule-state').textContent()).toBe('NOT ACTIVE');
    await flip('Enable schedule office hours');
    await toast(page, scheduleStateToast('ENABLED')).waitFor();
    await expect.poll(() => row.getByTestId('schedule-state').textContent()).toBe('ACTIVE');

    await row.getByRole('button', { name: 'Actions of schedule office hours', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Stop All', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop All', exact: true }).click();
    // the runs answer once AWS took every call
    await toast(page, scheduleActionToast('stop')).waitFor();
    expect(world()).toEqual({ busy: 'stopped', workers: '0/0/4', ordersDb: 'stopped', idle: 'running' });

    await row.getByRole('button', { name: 'Actions of schedule office hours', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Start All', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start All', exact: true }).click();
    await toast(page, scheduleActionToast('start')).waitFor();
    expect(world()).toEqual({ busy: 'running', workers: '2/1/4', ordersDb: 'available', idle: 'running' });

    // the runs are shown on the schedule
    await row.getByTestId('schedule-name').click();
    await page.waitForURL(/\/tools\/schedules\/[^/]+\/edit$/);
    const runs = page.getByTestId('schedule-runs');
    await expect.poll(() => runs.getByTestId('run-status').allTextContents()).toEqual(['SUCCEEDED', 'SUCCEEDED']);
    expect(await runs.getByTestId('run-resources').allTextContents()).toEqual(Array(2).fill('i-0a00000000000busy, workers, orders-db'));
    await shot(page, 'schedule-edit');
  });

  test("an environment's saving schedule: Stop All and Start All stop and start its tagged instances and databases; its statistics open the Waste Advisor", async () => {
    await page.goto('/environments/create');
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('staging');
    await page.getByRole('textbox', { name: 'Description', exact: true }).fill('Staging of the shop');
    await choose(page, page.getByRole('textbox', { name: 'AWS Account', exact: true }), `production (${ACCOUNT})`);
    await page.getByRole('textbox', { name: 'Region', exact: true }).click();
    await page.getByRole('option', { name: 'eu-west-1', exact: true }).click();
    await page.getByRole('switch', { name: 'Enable saving', exact: true }).click({ force: true });
    const fields = page.getByTestId('schedule-fields');
    await fields.getByRole('textbox', { name: 'Schedule name', exact: true }).fill('staging nights');
    await onlyQuietDay(fields);
    await page.getByRole('button', { name: 'Create Environment', exact: true }).click();
    await page.waitForURL(/\/environments\/[0-9a-f-]{36}$/);
    const stageId = new URL(page.url()).pathname.split('/').pop()!;

    // what a deployment of the environment tags: its resources carry its id, its scheduled ones the cost tag too
    for (const r of [...aws.world.instances, ...aws.world.lbs, ...aws.world.dbs])
      if (r.tags[ENVIRONMENT_TAG_KEY] === 'stage-seeded') r.tags[ENVIRONMENT_TAG_KEY] = stageId;
    instance('i-0a00000000000idle').tags[COST_TAG_KEY] = stageId;
    db('shop-db').tags[COST_TAG_KEY] = stageId;

    await page.getByRole('button', { name: 'Stop All', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Stop All', exact: true }).click();
    await toast(page, scheduleActionToast('stop')).waitFor();
    expect([instance('i-0a00000000000idle').state, db('shop-db').status]).toEqual(['stopped', 'stopped']);
    expect(instance('i-0a00000000000busy').state).toBe('running');
    await shot(page, 'environment-stopped');

    await page.getByRole('button', { name: 'Start All', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Start All', exact: true }).click();
    await toast(page, scheduleActionToast('start')).waitFor();
    expect([instance('i-0a00000000000idle').state, db('shop-db').status]).toEqual(['running', 'available']);

    // the statistics panel opens the Waste Advisor on the environment's account, region and tag
    await page.getByTestId('open-advisor').click();
    await page.waitForURL('**/tools/advisor');
    await expect.poll(() => page.getByTestId('advisor-tag').textContent()).toBe(`${ENVIRONMENT_TAG_KEY} = ${stageId}`);
    const refresh = page.getByRole('button', { name: 'Refresh from CloudWatch', exact: true });
    await refresh.click();
    await shot(page, 'advisor-refreshing');
    await expect.poll(() => refresh.isEnabled()).toBe(true);
    await expect.poll(() => page.getByTestId('advisor-ec2-summary').textContent()).toBe('1 of 2 EC2 instances have low average daily utilization');
    expect(await page.getByTestId('advisor-nonclassic-summary').textContent()).toBe('1 application, network and gateway load balancers appear idle');
    expect(await page.getByTestId('advisor-rds-summary').textContent()).toBe('1 of 1 DB instances appear idle');
    await shot(page, 'advisor-environment');
    // the environment's card shows the same cached result
    await page.goto('/environments');
    const card = page.getByTestId('advisor-summary');
    await expect.poll(() => card.getByTestId('advisor-ec2-summary').textContent()).toBe('1 of 2 EC2 instances have low average daily utilization');
    expect(await card.getByTestId('advisor-elb-summary').textContent()).toBe('1 load balancers appear idle');
    expect(await card.getByTestId('advisor-rds-summary').textContent()).toBe('1 of 1 DB instances appear idle');
    await shot(page, 'environments');
  });

  test('Cost Explorer: Refresh asks Cost Explorer once and shows the figures; a report is created and Send now mails it with its CSV', async () => {
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Cost Explorer', exact: true }).click();
    await page.waitForURL('**/tools/cost-explorer');
    await page.getByText('No cost data yet', { exact: true }).waitFor();
    const ceCalls = () => aws.calls.filter((c) => c.service === 'ce').length;
    expect(ceCalls()).toBe(0); // reading the page never calls AWS
    await page.getByRole('button', { name: 'Fetch cost data', exact: true }).click();

    const dollars = /^\$[1-9][\d,]*$/;
    await expect.poll(() => page.getByTestId('cost-last-month').textContent(), { timeout: 30_000 }).toMatch(dollars);
    expect(await page.getByTestId('cost-current-month').textContent()).toMatch(/^\$[\d,]+$/);
    expect(await page.getByTestId('cost-estimate-year').textContent()).toMatch(dollars);
    await page.getByTestId('cost-age').getByText('Updated just now', { exact: true }).waitFor();
    await page.getByTestId('cost-by-account').getByText('production', { exact: true }).waitFor();
    const calls = ceCalls();
    expect(calls).toBeGreaterThan(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('cost-last-month').textContent()).toMatch(dollars);
    expect(ceCalls()).toBe(calls); // the cached answer
    await shot(page, 'cost-explorer');

    await createReport(page, 'Weekly costs', 'finance@example.com', { shot: 'report-form' });
    await sendNow(page, 'Weekly costs', 'finance@example.com');
    const mail = await stack.smtp.waitFor('finance@example.com');
    expect(mail.subject).toMatch(/^Weekly costs: AWS costs /);
    expect(mail.html).toContain('<table');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.filename).toMatch(/^weekly-costs-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(mail.attachments[0]!.content.split('\r\n')[0]).toBe('AWS account,Account name,Start,End,Service,Cost (USD)');
    await shot(page, 'cost-explorer-report');
    // delivered: the card stops saying Sending…
    await expect.poll(() => reportRow(page, 'Weekly costs').getByTestId('report-send-status').textContent(), { timeout: 60_000 }).toMatch(/ago$/);
  });

  test("a report's send the mail server refuses shows on the reports card as failed, with the server's answer", async () => {
    stack.smtp.refuse('bounce@example.com', '550 5.1.1 <bounce@example.com>: mailbox unavailable');
    await createReport(page, 'Bounced costs', 'bounce@example.com');
    await sendNow(page, 'Bounced costs', 'bounce@example.com');
    // the toast does not claim a delivery the mail server then refuses
    expect(await page.getByRole('alert').filter({ hasText: 'sent to bounce@example.com' }).count()).toBe(0);
    const row = reportRow(page, 'Bounced costs');
    const error = row.getByTestId('report-send-error');
    await expect.poll(() => error.textContent(), { timeout: 60_000 }).toMatch(/^Send now failed: Not delivered to bounce@example\.com: .*550 5\.1\.1/);
    expect(await error.textContent()).toContain('It is not retried: fix the cause, then use Send now.');
    await row.getByText('Send failed', { exact: true }).waitFor();
    await shot(page, 'report-send-failed');
  });
});

const reportRow = (page: Page, name: string) => page.getByTestId('reports-table').getByRole('row').filter({ hasText: name });

/** Creates a weekly report of the production account in eu-west-1 from the Cost Explorer page, back on it after. */
async function createReport(page: Page, name: string, email: string, o: { shot?: string } = {}) {
  await page.getByRole('link', { name: 'Create Report', exact: true }).first().click();
  await page.waitForURL('**/tools/cost-explorer/reports/create');
  await page.getByRole('textbox', { name: 'Report name', exact: true }).fill(name);
  await page.getByRole('textbox', { name: 'AWS accounts', exact: true }).click();
  await page.getByRole('option', { name: `production (${ACCOUNT})`, exact: true }).click();
  await page.getByRole('textbox', { name: 'Regions', exact: true }).click();
  await page.getByRole('option', { name: 'eu-west-1', exact: true }).click();
  const emails = page.getByRole('textbox', { name: 'E-mails', exact: true });
  await emails.fill(email);
  await emails.press('Enter');
  if (o.shot) await shot(page, o.shot);
  await page.getByRole('button', { name: 'Create Report', exact: true }).click();
  await toast(page, `Created report ${name}.`).waitFor();
  await page.waitForURL('**/tools/cost-explorer');
}

async function sendNow(page: Page, name: string, email: string) {
  await reportRow(page, name)
    .getByRole('button', { name: `Actions of report ${name}`, exact: true })
    .click();
  await page.getByRole('menuitem', { name: 'Send now', exact: true }).click();
  await toast(page, `Sending report ${name} to ${email}.`).waitFor();
}
