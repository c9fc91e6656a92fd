import {
  CostExplorerClient,
  GetCostAndUsageCommand,
  GetCostForecastCommand,
  DataUnavailableException,
  type Expression,
  type GroupDefinition,
  type ResultByTime,
} from '@aws-sdk/client-cost-explorer';
import type { AwsSession } from '../aws-resources/session.js';
import { lastTwelveMonths, type AccountCosts } from './aggregate.js';

/** The allocation tag environments carry (spec §9): its value is the stage id. */
export const ENVIRONMENT_TAG = 'gantry:environment';
const METRIC = 'UnblendedCost';
const DAY_MS = 86_400_000;

/** Cost Explorer has one endpoint, in us-east-1, whatever the account's regions. */
const client = (s: AwsSession) => new CostExplorerClient({ region: 'us-east-1', credentials: s.credentials });
const day = (d: Date) => d.toISOString().slice(0, 10);
const monthStart = (now: Date, plusMonths = 0) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + plusMonths, 1));
const amountOf = (m: Record<string, { Amount?: string }> | undefined) => Number(m?.[METRIC]?.Amount ?? 0);
/** Only this account's costs: a management account's answers would otherwise include its linked accounts. */
const onlyAccount = (awsAccountId: string): Expression => ({ Dimensions: { Key: 'LINKED_ACCOUNT', Values: [awsAccountId] } });

async function costAndUsage(
  ce: CostExplorerClient,
  input: { start: Date; end: Date; granularity: 'DAILY' | 'MONTHLY'; filter: Expression; groupBy?: GroupDefinition[] },
) {
  const results: ResultByTime[] = [];
  let token: string | undefined;
  do {
    const page = await ce.send(
      new GetCostAndUsageCommand({
        TimePeriod: { Start: day(input.start), End: day(input.end) },
        Granularity: input.granularity,
        Metrics: [METRIC],
        Filter: input.filter,
        GroupBy: input.groupBy,
        NextPageToken: token,
      }),
    );
    results.push(...(page.ResultsByTime ?? []));
    token = page.NextPageToken;
  } while (token);
  return results;
}

/** Sums the groups of every period by their keys joined with '|' (a TAG key answers as 'key$value'). */
function groupTotals(results: ResultByTime[], key: (keys: string[]) => string) {
  const out: Record<string, number> = {};
  for (const r of results) for (const g of r.Groups ?? []) out[key(g.Keys ?? [])] = (out[key(g.Keys ?? [])] ?? 0) + amountOf(g.Metrics);
  return out;
}
const tagValue = (key: string) => key.slice(key.indexOf('$') + 1);

/** A forecast's mean total, null when AWS has too little history (DataUnavailableException). */
async function forecast(ce: CostExplorerClient, filter: Expression, start: Date, end: Date): Promise<number | null> {
  if (end <= start) return 0;
  try {
    const f = await ce.send(
      new GetCostForecastCommand({ TimePeriod: { Start: day(start), End: day(end) }, Granularity: 'MONTHLY', Metric: 'UNBLENDED_COST', Filter: filter }),
    );
    return Number(f.Total?.Amount ?? 0);
  } catch (err) {
    if (err instanceof DataUnavailableException || (err as { name?: string }).name === 'DataUnavailableException') return null;
    throw err;
  }
}

/**
 * One account's dashboard figures from Cost Explorer (each request costs money: callers cache):
 * twelve months of totals, the current month by service and by the environment tag, and forecasts
 * for the rest of the month and the next twelve months.
 */
export async function fetchAccountCosts(s: AwsSession, account: { awsAccountId: string; accountName: string | null }, now: Date): Promise<AccountCosts> {
  const ce = client(s);
  const filter = onlyAccount(account.awsAccountId);
  const thisMonth = monthStart(now);
  const nextMonth = monthStart(now, 1);
  const tomorrow = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + DAY_MS);
  const [yearly, services, environments, restOfMonth, nextYear] = await Promise.all([
    costAndUsage(ce, { start: monthStart(now, -11), end: nextMonth, granularity: 'MONTHLY', filter }),
    costAndUsage(ce, { start: thisMonth, end: nextMonth, granularity: 'MONTHLY', filter, groupBy: [{ Type: 'DIMENSION', Key: 'SERVICE' }] }),
    costAndUsage(ce, { start: thisMonth, end: nextMonth, granularity: 'MONTHLY', filter, groupBy: [{ Type: 'TAG', Key: ENVIRONMENT_TAG }] }),
    forecast(ce, filter, tomorrow, nextMonth),
    forecast(ce, filter, nextMonth, monthStart(now, 13)),
  ]);
  const months = lastTwelveMonths(now);
  return {
    ...account,
    months: months.map((month) => ({ month, amount: sum(yearly.filter((r) => r.TimePeriod?.Start?.startsWith(month)).map((r) => amountOf(r.Total))) })),
    services: groupTotals(services, (k) => k[0] ?? ''),
    environments: groupTotals(environments, (k) => tagValue(k[0] ?? '')),
    forecast: { restOfMonth, nextYear },
  };
}
const sum = (ns: number[]) => ns.reduce((s, n) => s + n, 0);

/** One line of a report: a period's cost of a service (and a tag value when the report has a tag). */
export interface ReportLine {
  start: string;
  end: string;
  service: string;
  tagValue: string | null;
  amount: number;
}

/**
 * A report's costs of one account over [start, end) in its regions, by day (weekly reports) or
 * month, grouped by service and, when given, by a cost allocation tag's values.
 */
export async function fetchReportLines(
  s: AwsSession,
  q: { awsAccountId: string; regions: string[]; start: Date; end: Date; granularity: 'DAILY' | 'MONTHLY'; tag: string | null },
): Promise<ReportLine[]> {
  const groupBy: GroupDefinition[] = [{ Type: 'DIMENSION', Key: 'SERVICE' }];
  if (q.tag) groupBy.push({ Type: 'TAG', Key: q.tag });
  const results = await costAndUsage(client(s), {
    start: q.start,
    end: q.end,
    granularity: q.granularity,
    filter: { And: [onlyAccount(q.awsAccountId), { Dimensions: { Key: 'REGION', Values: q.regions } }] },
    groupBy,
  });
  return results.flatMap((r) =>
    (r.Groups ?? []).map((g) => ({
      start: r.TimePeriod?.Start ?? '',
      end: r.TimePeriod?.End ?? '',
      service: g.Keys?.[0] ?? '',
      tagValue: q.tag ? tagValue(g.Keys?.[1] ?? '') : null,
      amount: amountOf(g.Metrics),
    })),
  );
}
