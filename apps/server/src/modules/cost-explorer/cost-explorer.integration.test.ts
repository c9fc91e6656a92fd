import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startAwsStandin, startSmtp, seedWasteWorld, type AwsStandin, type SmtpStandIn } from '@gantry/test-support';
import {
  createTestApp,
  grantPlan,
  connectAwsAccount,
  registerUser,
  createProject,
  bearer,
  type TestApp,
  acceptingCloudVerifier,
  until,
} from '../../../test/helpers.js';
import { fetchAccountCosts, fetchReportLines } from '../../integrations/aws-cost/index.js';
import { sessionFromEnv } from '../../integrations/aws-resources/session.js';
import { createCostStore } from './cost-explorer.store.js';
import { createCostExplorerService, SEND_LEASE_MS, type FetchReportLines } from './cost-explorer.service.js';
import { createReportsScheduler } from './reports.scheduler.js';
import type { Mailer } from '../../platform/mail.js';

/**
 * Cost reports end to end: the AWS stand-in's Cost Explorer through the SDK with the account's
 * role, mails through the queue to a real SMTP server, "Send now" and the schedule with a clock
 * the test moves and two workers on one database (a send time is mailed once, and again by
 * another worker when the one that claimed it died mid-send).
 */
const ACCOUNT = '123456789012';
const STAGE = 'stage-integration';
let clock = Date.parse('2026-11-20T12:00:00Z'); // a Friday
let aws: AwsStandin;
let smtp: SmtpStandIn;
let t: TestApp;
let owner: { idToken: string };
let projectId: string;

const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-cloud-cost-optimizer/projects/${projectId}${url}`, headers: bearer(owner.idToken), payload });

/** A worker: its own service and scheduler over the same database, mailer and AWS calls as the app's; `sendNow` is its Send now. */
function worker(o: { fetchReportLines?: FetchReportLines; send?: Mailer['send'] } = {}) {
  const s = t.app.services;
  const session = async (awsAccountId: string) => sessionFromEnv('us-east-1', await s.cloudAccounts.credentialsFor(projectId, 'aws', awsAccountId));
  const service = createCostExplorerService({
    store: createCostStore(s.database.db),
    billing: s.billing,
    mailer: { send: o.send ?? s.mailer.send, deliveries: s.mailer.deliveries },
    now: () => new Date(clock),
    awsAccounts: async (pid) => (await s.cloudAccounts.listAws(pid)).map((a) => ({ awsAccountId: a.id, accountName: a.accountName })),
    fetchCosts: async (_pid, account, now) => fetchAccountCosts(await session(account.awsAccountId), account, now),
    fetchReportLines: o.fetchReportLines ?? (async (_pid, q) => fetchReportLines(await session(q.awsAccountId), q)),
  });
  const scheduler = createReportsScheduler({ reports: service, now: () => new Date(clock) });
  return Object.assign(scheduler, { sendNow: (reportId: string) => service.sendReport(projectId, reportId) });
}

beforeAll(async () => {
  aws = await startAwsStandin({ now: () => clock, world: seedWasteWorld({ stageId: STAGE, now: clock }) });
  smtp = await startSmtp();
  Object.assign(process.env, aws.env());
  // the app's own scheduler ticks only when asked (tickEveryMs is a day)
  t = await createTestApp(
    { SMTP_URL: smtp.url, MAIL_FROM: 'Gantry <gantry@example.com>' },
    { overrides: { cloudAccounts: { verifier: acceptingCloudVerifier }, costExplorer: { now: () => new Date(clock), tickEveryMs: 86_400_000 } } },
  );
  owner = await registerUser(t, 'cost-int@example.com');
  projectId = await createProject(t, owner.idToken, 'Cost reports');
  await grantPlan(t, owner.idToken, projectId);
  await connectAwsAccount(t, owner.idToken, projectId, ACCOUNT, { name: 'prod' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await aws?.close();
});

describe('cost explorer and reports against the AWS stand-in and an SMTP server', () => {
  it('refreshes the dashboard from Cost Explorer (with the role of the account)', async () => {
    const res = await call('POST', '/cost/refresh');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ costForTheCurrentMonth: 105, byAccount: [{ awsAccountId: ACCOUNT, accountName: 'prod', amount: 105 }] });
    expect(aws.calls.filter((c) => c.service === 'ce').map((c) => c.region)).toEqual(Array(5).fill('us-east-1'));
  });

  it('"Send now" mails an HTML summary with a CSV of every line', async () => {
    const created = await call('POST', '/reports', {
      reportName: 'Weekly, by environment',
      awsAccountIds: [ACCOUNT],
      regions: ['eu-west-1', 'us-east-1'],
      emails: ['finance@example.com'],
      granularity: 'WEEKLY',
      costAllocationTag: 'gantry:environment',
    });
    expect(created.statusCode, created.body).toBe(201);
    const sent = await call('POST', `/reports/${created.json().id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);

    const mail = await smtp.waitFor('finance@example.com');
    expect(mail.subject).toBe('Weekly, by environment: AWS costs 2026-11-09 – 2026-11-15');
    expect(mail.html).toContain('<table');
    expect(mail.html).toContain('prod (123456789012)');
    expect(mail.html).toContain('$39'); // 7 days × 5.50 = 38.50
    expect(mail.html).toContain(`>${STAGE}</td>`); // the tag's values, with what each cost
    expect(mail.text).toContain(`gantry:environment ${STAGE}: $22`); // 7 × 3.20
    expect(mail.text).toContain('gantry:environment (untagged): $16'); // 7 × (1.80 + 0.50)
    expect(mail.attachments).toHaveLength(1);
    const csv = mail.attachments[0]!;
    expect(csv).toMatchObject({ filename: 'weekly-by-environment-2026-11-09.csv', contentType: 'text/csv' });
    const rows = csv.content.trim().split('\r\n');
    expect(rows[0]).toBe('AWS account,Account name,Start,End,Service,gantry:environment,Cost (USD)');
    expect(rows).toHaveLength(1 + 7 * 3); // a line per day and service
    expect(rows).toContain(`${ACCOUNT},prod,2026-11-09,2026-11-10,Amazon Elastic Compute Cloud - Compute,${STAGE},3.20`);
    expect(rows).toContain(`${ACCOUNT},prod,2026-11-15,2026-11-16,Amazon Simple Storage Service,,0.50`);
  });

  it('mails a monthly report on the 1st once, however many workers tick', async () => {
    const created = await call('POST', '/reports', {
      reportName: 'Monthly',
      awsAccountIds: [ACCOUNT],
      regions: ['eu-west-1'],
      emails: ['cfo@example.com', 'ops@example.com'],
      granularity: 'MONTHLY',
    });
    expect(created.statusCode, created.body).toBe(201);
    const [a, b] = [worker(), worker()];

    // not yet due: nothing
    await Promise.all([a.tick(), b.tick()]);
    clock = Date.parse('2026-11-30T23:59:00Z');
    await Promise.all([a.tick(), b.tick()]);
    // the outbox records a mail as it is sent (delivery follows through the queue)
    expect((await t.app.services.mailer.outbox(500)).filter((m) => m.to === 'cfo@example.com')).toHaveLength(0);

    clock = Date.parse('2026-12-01T00:00:20Z');
    await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.tick(), b.tick()]);
    const mail = await smtp.waitFor('cfo@example.com');
    expect(mail.subject).toBe('Monthly: AWS costs 2026-11-01 – 2026-11-30');
    expect(mail.attachments[0]!.content.split('\r\n')[1]).toBe(`${ACCOUNT},prod,2026-11-01,2026-12-01,Amazon Elastic Compute Cloud - Compute,60.80`); // the stand-in's costs end on Nov 19);
    await smtp.waitFor('ops@example.com');
    const report = (await call('GET', `/reports/${created.json().id}`)).json();
    expect(report).toMatchObject({ lastSentAt: '2026-12-01T00:00:20.000Z', nextSendAt: '2027-01-01T00:00:00.000Z' });

    // once: every mail to be delivered is, and there is one per address
    const outbox = await t.app.services.mailer.outbox(500);
    expect(
      outbox
        .filter((m) => m.subject === mail.subject)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['cfo@example.com', 'ops@example.com']);
  });

  it('a send whose worker died after claiming it is mailed by the next tick after its lease, once', async () => {
    const created = await call('POST', '/reports', {
      reportName: 'Weekly, after a crash',
      awsAccountIds: [ACCOUNT],
      regions: ['us-west-2'],
      emails: ['lease@example.com'],
      granularity: 'WEEKLY',
    });
    expect(created.statusCode, created.body).toBe(201);
    // the first worker claims this report's send and then hangs (a crashed worker) until the test lets it go on
    let claimed!: () => void;
    const hasClaimed = new Promise<void>((r) => (claimed = r));
    let resume!: () => void;
    const resumed = new Promise<void>((r) => (resume = r));
    const crashed = worker({
      fetchReportLines: async (pid, q) => {
        if (q.regions.includes('us-west-2')) {
          claimed();
          await resumed;
        }
        return [];
      },
    });
    const live = worker();
    const leaseMails = async () => (await t.app.services.mailer.outbox(500)).filter((m) => m.to === 'lease@example.com');

    clock = Date.parse('2026-12-07T00:00:10Z');
    const crashedTick = crashed.tick();
    await hasClaimed;
    await live.tick(); // the lease is the crashed worker's: nothing
    clock += SEND_LEASE_MS - 60_000;
    await live.tick();
    expect(await leaseMails()).toHaveLength(0);

    clock += 2 * 60_000; // the lease has expired: the next tick mails it
    await live.tick();
    const mail = await smtp.waitFor('lease@example.com');
    expect(mail.subject).toBe('Weekly, after a crash: AWS costs 2026-11-30 – 2026-12-06');
    expect((await call('GET', `/reports/${created.json().id}`)).json().lastSentAt).toBe(new Date(clock).toISOString());

    // the crashed worker coming back finds its claim taken over and mails nothing; later ticks neither
    resume();
    await crashedTick;
    await live.tick();
    expect(await leaseMails()).toHaveLength(1);
  });
  /** A weekly report created now (its scheduled send is next Monday), mailed to `to`. */
  const weekly = async (reportName: string, to: string) => {
    const created = await call('POST', '/reports', { reportName, awsAccountIds: [ACCOUNT], regions: ['ap-south-1'], emails: [to], granularity: 'WEEKLY' });
    expect(created.statusCode, created.body).toBe(201);
    return created.json().id as string;
  };
  const mailsTo = async (to: string) => (await t.app.services.mailer.outbox(500)).filter((m) => m.to === to);
  /** A mailer that cannot queue: the send fails before any mail is recorded. */
  const queueDown = async (): Promise<never> => {
    throw new Error('the mail queue is down');
  };
  /** What the report's screen shows of its newest send. */
  const lastSend = async (reportId: string) => (await call('GET', `/reports/${reportId}`)).json().lastSend;

  it('a Send now whose worker died mid-send is taken over by the next tick after its lease, like a scheduled send, once', async () => {
    clock = Date.parse('2026-12-08T10:00:00Z'); // a Tuesday: no scheduled send of a new weekly report is due
    const reportId = await weekly('Sent now, then a crash', 'crash-now@example.com');
    let claimed!: () => void;
    const hasClaimed = new Promise<void>((r) => (claimed = r));
    let resume!: () => void;
    const resumed = new Promise<void>((r) => (resume = r));
    const crashed = worker({
      fetchReportLines: async () => {
        claimed();
        await resumed;
        return [];
      },
    });
    const live = worker();

    const crashedSend = crashed.sendNow(reportId);
    await hasClaimed;
    await live.tick(); // the lease is the crashed worker's: nothing
    clock += SEND_LEASE_MS - 60_000;
    await live.tick();
    expect(await mailsTo('crash-now@example.com')).toHaveLength(0);

    clock += 2 * 60_000; // the lease has expired: the next tick mails what was asked, the last full week before the click
    await live.tick();
    const mail = await smtp.waitFor('crash-now@example.com');
    expect(mail.subject).toBe('Sent now, then a crash: AWS costs 2026-11-30 – 2026-12-06');
    expect((await call('GET', `/reports/${reportId}`)).json().lastSentAt).toBe(new Date(clock).toISOString());

    // the crashed worker coming back finds its claim taken over and mails nothing; later ticks neither
    resume();
    await expect(crashedSend).rejects.toThrow('This report is being sent');
    clock += SEND_LEASE_MS + 60_000;
    await live.tick();
    expect(await mailsTo('crash-now@example.com')).toHaveLength(1);
  });

  it('a send that failed is retried by the first tick after its lease, then stays sent', async () => {
    clock = Date.parse('2026-12-09T10:00:00Z');
    const reportId = await weekly('Failed, then retried', 'retry@example.com');
    const down = worker({ send: queueDown });
    const live = worker();

    await expect(down.sendNow(reportId)).rejects.toThrow('the mail queue is down');
    expect(await lastSend(reportId)).toEqual({
      trigger: 'MANUAL',
      at: new Date(clock).toISOString(),
      status: 'FAILED',
      error: 'the mail queue is down',
      retryAt: new Date(clock + SEND_LEASE_MS).toISOString(),
    });
    await live.tick(); // failed a moment ago: not retried on every tick
    clock += SEND_LEASE_MS - 60_000;
    await live.tick();
    expect(await mailsTo('retry@example.com')).toHaveLength(0);
    expect((await call('GET', `/reports/${reportId}`)).json().lastSentAt).toBeNull();

    clock += 2 * 60_000;
    await live.tick();
    const mail = await smtp.waitFor('retry@example.com');
    expect(mail.subject).toBe('Failed, then retried: AWS costs 2026-11-30 – 2026-12-06');
    expect((await call('GET', `/reports/${reportId}`)).json().lastSentAt).toBe(new Date(clock).toISOString());
    const retried = await until(
      () => lastSend(reportId),
      (s) => s.status === 'SENT',
      'the retry delivered',
    );
    expect(retried).toEqual({ trigger: 'MANUAL', at: new Date(clock).toISOString(), status: 'SENT', error: null, retryAt: null });
    clock += SEND_LEASE_MS + 60_000;
    await live.tick();
    expect(await mailsTo('retry@example.com')).toHaveLength(1);
  });

  it("the mail server refusing an address: the report's last send is FAILED with the server's answer", async () => {
    clock = Date.parse('2026-12-09T12:00:00Z');
    smtp.refuse('bounce@example.com', '550 5.1.1 <bounce@example.com>: mailbox unavailable');
    const reportId = await weekly('Refused', 'bounce@example.com');
    await worker().sendNow(reportId);
    const failed = await until(
      () => lastSend(reportId),
      (s) => s.status !== 'SENDING',
      'the mail server answered',
    );
    expect(failed).toMatchObject({ trigger: 'MANUAL', status: 'FAILED', retryAt: null });
    expect(failed.error).toMatch(/^Not delivered to bounce@example\.com: .*550 5\.1\.1 <bounce@example\.com>: mailbox unavailable/);
  });

  it('a Send now while a failed Send now awaits its retry takes that retry over: the recipients get it once', async () => {
    clock = Date.parse('2026-12-10T10:00:00Z'); // a Thursday
    const reportId = await weekly('Failed, then sent now', 'once@example.com');
    const down = worker({ send: queueDown });
    const live = worker();

    await expect(down.sendNow(reportId)).rejects.toThrow('the mail queue is down');
    expect(await lastSend(reportId)).toMatchObject({ status: 'FAILED', retryAt: new Date(clock + SEND_LEASE_MS).toISOString() });

    clock += 60_000; // clicked again before the retry
    expect(await live.sendNow(reportId)).toEqual({ sentTo: ['once@example.com'], sentAt: new Date(clock).toISOString() });
    await smtp.waitFor('once@example.com');
    expect(
      await until(
        () => lastSend(reportId),
        (s) => s.status === 'SENT',
        'the mail delivered',
      ),
    ).toEqual({
      trigger: 'MANUAL',
      at: new Date(clock).toISOString(),
      status: 'SENT',
      error: null,
      retryAt: null,
    });
    clock += SEND_LEASE_MS + 60_000; // the retry's time has come: nothing is left to retry
    await live.tick();
    expect(await mailsTo('once@example.com')).toHaveLength(1);
  });

  it('a Send now while the scheduled send of the period failed takes it over; while one is being sent it answers 409', async () => {
    clock = Date.parse('2026-12-12T10:00:00Z'); // a Saturday
    const reportId = await weekly('Scheduled, failed, sent now', 'scheduled-once@example.com');
    clock = Date.parse('2026-12-14T00:01:00Z'); // Monday: the scheduled send is due
    let claimed!: () => void;
    const hasClaimed = new Promise<void>((r) => (claimed = r));
    let resume!: () => void;
    const resumed = new Promise<void>((r) => (resume = r));
    const flaky = worker({ send: queueDown });
    await flaky.tick();
    expect(await lastSend(reportId)).toMatchObject({ trigger: 'SCHEDULE', status: 'FAILED', error: 'the mail queue is down' });

    // Send now while the scheduled send awaits its retry: it is that send, for the same week
    clock += 5 * 60_000;
    const slow = worker({
      fetchReportLines: async () => {
        claimed();
        await resumed;
        return [];
      },
    });
    const sending = slow.sendNow(reportId);
    await hasClaimed;
    expect(await lastSend(reportId)).toMatchObject({ trigger: 'SCHEDULE', status: 'SENDING', at: new Date(clock).toISOString() });
    await expect(worker().sendNow(reportId)).rejects.toThrow('This report is being sent');
    resume();
    await sending;
    const mail = await smtp.waitFor('scheduled-once@example.com');
    expect(mail.subject).toBe('Scheduled, failed, sent now: AWS costs 2026-12-07 – 2026-12-13');

    clock += SEND_LEASE_MS + 60_000;
    await worker().tick();
    expect(await mailsTo('scheduled-once@example.com')).toHaveLength(1);
  });
});
