import { ReportBody, type CostDashboard, type Report, type ReportLastSend, type ReportSendResult } from '@gantry/contracts';
import type { z } from 'zod';
import { Conflict, NotFound, Validation } from '../../platform/errors.js';
import type { Mailer } from '../../platform/mail.js';
import { aggregateCosts, type AccountCosts, type AccountOutcome, type ReportLine } from '../../integrations/aws-cost/index.js';
import type { BillingService } from '../billing/billing.port.js';
import type { CostStore, ReportRow, SendRow } from './cost-explorer.store.js';
import { lastSendAt, nextSendAt, periodBefore } from './report-periods.js';
import { renderReportMail, type AccountReport } from './report-mail.js';
import { sendOutcome } from './report-outcome.js';

export interface AwsAccountRef {
  awsAccountId: string;
  accountName: string | null;
}
/** One account's dashboard figures from Cost Explorer (with the account's assumed role). */
export type FetchCosts = (projectId: string, account: AwsAccountRef, now: Date) => Promise<AccountCosts>;
/** One account's report lines over a period in the report's regions. */
export type FetchReportLines = (
  projectId: string,
  q: { awsAccountId: string; regions: string[]; start: Date; end: Date; granularity: 'DAILY' | 'MONTHLY'; tag: string | null },
) => Promise<ReportLine[]>;

/**
 * How long a send's claim (scheduled or Send now) is its worker's. A claim still unsent after this (its worker died
 * mid-send, or the send failed) is taken over by the next tick, so what was asked is mailed at least once; a send takes
 * seconds, so a live one is not doubled, and a failing one is retried every lease, not every tick.
 */
export const SEND_LEASE_MS = 15 * 60_000;
/** A send missed by more than this (every worker down), or failing for longer, is given up rather than mailed late. */
export const LOOKBACK_MS = 24 * 3_600_000;

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * The cost explorer and its reports (spec §2.10), a plan feature (cloudCostOptimizer → 402).
 * The dashboard is read from the cache only; a refresh asks Cost Explorer for every AWS account
 * of the project. Reports are mailed on their period by the scheduler, or at once ("Send now").
 */
export function createCostExplorerService(deps: {
  store: CostStore;
  billing: BillingService;
  mailer: Pick<Mailer, 'send' | 'deliveries'>;
  awsAccounts: (projectId: string) => Promise<AwsAccountRef[]>;
  fetchCosts: FetchCosts;
  fetchReportLines: FetchReportLines;
  now?: () => Date;
}) {
  const { store, billing } = deps;
  const now = deps.now ?? (() => new Date());
  const feature = (projectId: string) => billing.assertFeature(projectId, 'cloudCostOptimizer');

  /** The reports with what their newest send came to. */
  async function withLastSends(rows: ReportRow[]): Promise<Report[]> {
    const sends = new Map((await store.lastSends(rows.map((r) => r.id))).map((s) => [s.reportId, s]));
    const mails = new Map((await deps.mailer.deliveries([...sends.values()].flatMap((s) => s.mailIds ?? []))).map((m) => [m.id, m]));
    const o = { now: now(), leaseMs: SEND_LEASE_MS, lookbackMs: LOOKBACK_MS };
    return rows.map((r) => {
      const send = sends.get(r.id);
      return toReport(r, send ? sendOutcome(send, mails, o) : null);
    });
  }

  const toReport = (r: ReportRow, lastSend: ReportLastSend | null): Report => ({
    id: r.id,
    reportName: r.reportName,
    awsAccountIds: r.awsAccountIds,
    regions: r.regions,
    emails: r.emails,
    granularity: r.granularity,
    costAllocationTag: r.costAllocationTag,
    lastSentAt: r.lastSentAt?.toISOString() ?? null,
    nextSendAt: nextSendAt(r.granularity, now()).toISOString(),
    createdAt: r.createdAt.toISOString(),
    lastSend,
  });
  async function reportOf(projectId: string, id: string) {
    await feature(projectId);
    const row = await store.report(projectId, id);
    if (!row) throw new NotFound('Report not found');
    return row;
  }
  /** The body with its accounts checked against the project's connected ones (and de-duplicated). */
  async function valuesOf(projectId: string, body: z.output<typeof ReportBody>) {
    const connected = new Set((await deps.awsAccounts(projectId)).map((a) => a.awsAccountId));
    const unknown = body.awsAccountIds.filter((id) => !connected.has(id));
    if (unknown.length) throw new Validation(`AWS account ${unknown.join(', ')} is not connected to this project`, { awsAccountIds: ['not connected'] });
    const unique = (xs: string[]) => [...new Set(xs)];
    return {
      reportName: body.reportName,
      awsAccountIds: unique(body.awsAccountIds),
      regions: unique(body.regions),
      emails: unique(body.emails.map((e) => e.toLowerCase())),
      granularity: body.granularity,
      costAllocationTag: body.costAllocationTag || null,
    };
  }

  /** Mails the period a claimed send is for to the report's addresses; null when another worker took the claim over meanwhile. */
  async function mail(r: ReportRow, send: SendRow): Promise<ReportSendResult | null> {
    const { scheduledFor } = send;
    try {
      const period = periodBefore(r.granularity, lastSendAt(r.granularity, scheduledFor));
      const names = new Map((await deps.awsAccounts(r.projectId)).map((a) => [a.awsAccountId, a.accountName]));
      const accounts = await Promise.all(
        r.awsAccountIds.map(async (awsAccountId): Promise<AccountReport> => {
          const base = { awsAccountId, accountName: names.get(awsAccountId) ?? null };
          if (!names.has(awsAccountId)) return { ...base, lines: [], error: 'the AWS account is no longer connected to the project' };
          try {
            const lines = await deps.fetchReportLines(r.projectId, {
              awsAccountId,
              regions: r.regions,
              ...period,
              granularity: r.granularity === 'WEEKLY' ? 'DAILY' : 'MONTHLY',
              tag: r.costAllocationTag,
            });
            return { ...base, lines, error: null };
          } catch (err) {
            return { ...base, lines: [], error: message(err) };
          }
        }),
      );
      const m = renderReportMail(r, period, accounts);
      // a worker that stalled past its lease leaves the mailing to the one that took it over
      if (!(await store.holds(send))) return null;
      const mailIds: string[] = [];
      for (const to of r.emails) mailIds.push((await deps.mailer.send({ to, subject: m.subject, text: m.text, html: m.html, attachments: [m.attachment] })).id);
      const sentAt = now();
      await store.finishSend(send, { status: 'SENT', error: null, mailIds }, sentAt);
      return { sentTo: r.emails, sentAt: sentAt.toISOString() };
    } catch (err) {
      await store.finishSend(send, { status: 'FAILED', error: message(err) }, now());
      throw err;
    }
  }

  return {
    async dashboard(projectId: string): Promise<CostDashboard> {
      await feature(projectId);
      const row = await store.dashboard(projectId);
      if (!row) return { data: null, fetchedAt: null, ageSeconds: null };
      return {
        data: row.data,
        fetchedAt: row.fetchedAt.toISOString(),
        ageSeconds: Math.max(0, Math.round((now().getTime() - row.fetchedAt.getTime()) / 1000)),
      };
    },
    /** Asks Cost Explorer for every AWS account (an account's failure is listed, not fatal) and caches the dashboard. */
    async refresh(projectId: string): Promise<CostDashboard> {
      await feature(projectId);
      const at = now();
      const outcomes = await Promise.all(
        (await deps.awsAccounts(projectId)).map(async (a): Promise<AccountOutcome> => {
          try {
            return { ok: true, costs: await deps.fetchCosts(projectId, a, at) };
          } catch (err) {
            return { ok: false, awsAccountId: a.awsAccountId, message: message(err) };
          }
        }),
      );
      const row = await store.saveDashboard(projectId, aggregateCosts(outcomes, at), at);
      return { data: row.data, fetchedAt: row.fetchedAt.toISOString(), ageSeconds: 0 };
    },

    async listReports(projectId: string): Promise<Report[]> {
      await feature(projectId);
      return withLastSends(await store.reports(projectId));
    },
    getReport: async (projectId: string, id: string) => (await withLastSends([await reportOf(projectId, id)]))[0]!,
    async createReport(projectId: string, body: z.output<typeof ReportBody>): Promise<Report> {
      await feature(projectId);
      return toReport(await store.insertReport(projectId, await valuesOf(projectId, body), now()), null);
    },
    async updateReport(projectId: string, id: string, body: z.output<typeof ReportBody>): Promise<Report> {
      await reportOf(projectId, id);
      const row = await store.updateReport(projectId, id, await valuesOf(projectId, body), now());
      if (!row) throw new NotFound('Report not found');
      return (await withLastSends([row]))[0]!;
    },
    async deleteReport(projectId: string, id: string) {
      await reportOf(projectId, id);
      await store.deleteReport(projectId, id);
      return { ok: true as const };
    },
    /**
     * "Send now": the last full period, mailed at once. A send of that period awaiting its retry is taken over (sent now,
     * and not again by the retry), so however often it is clicked the recipients get it once per success.
     */
    async sendReport(projectId: string, id: string): Promise<ReportSendResult> {
      const row = await reportOf(projectId, id);
      const at = now();
      const since = new Date(Math.max(lastSendAt(row.granularity, at).getTime(), at.getTime() - LOOKBACK_MS));
      const send = await store.claimSendNow(row.id, { since, at, leaseExpiredBefore: new Date(at.getTime() - SEND_LEASE_MS) });
      const sent = send === 'busy' ? null : await mail(row, send);
      if (!sent) throw new Conflict('This report is being sent');
      return sent;
    },
    /**
     * The scheduler's send of a report due at `sendAt`, or its take-over of a send (scheduled or Send now) left unsent:
     * once however many workers ask; none for a project without the feature.
     */
    async sendScheduled(r: ReportRow, sendAt: Date, trigger: 'SCHEDULE' | 'MANUAL' = 'SCHEDULE'): Promise<ReportSendResult | null> {
      if (!(await billing.limitations(r.projectId)).cloudCostOptimizer) return null;
      const startedAt = now();
      const send = await store.claimSend({ reportId: r.id, trigger, scheduledFor: sendAt, startedAt }, new Date(startedAt.getTime() - SEND_LEASE_MS));
      return send ? mail(r, send) : null;
    },
    /** Sends asked for since `since` that died mid-send or failed, and whose lease has expired: the tick takes them over. */
    unsentSends: (since: Date) => store.unsentSends(new Date(now().getTime() - SEND_LEASE_MS), since),
    allReports: () => store.allReports(),
  };
}
export type CostExplorerService = ReturnType<typeof createCostExplorerService>;
