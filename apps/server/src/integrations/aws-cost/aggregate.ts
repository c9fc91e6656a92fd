import type { CostData } from '@gantry/contracts';

/** One AWS account's raw Cost Explorer answers (USD, unrounded) for the dashboard. */
export interface AccountCosts {
  awsAccountId: string;
  accountName: string | null;
  /** The last 12 months including the current one, oldest first (YYYY-MM). */
  months: { month: string; amount: number }[];
  /** Current month per Cost Explorer SERVICE name. */
  services: Record<string, number>;
  /** Current month per `gantry:environment` tag value ('' = untagged). */
  environments: Record<string, number>;
  /** Forecasts; null when Cost Explorer answered DataUnavailableException. */
  forecast: { restOfMonth: number | null; nextYear: number | null };
}
export type AccountOutcome = { ok: true; costs: AccountCosts } | { ok: false; awsAccountId: string; message: string };

/** Cost Explorer's names of the services the dashboard shows apart (EC2 compute and its "other" costs: EBS, NAT, data transfer). */
const EC2_SERVICES = ['Amazon Elastic Compute Cloud - Compute', 'EC2 - Other'];
const RDS_SERVICES = ['Amazon Relational Database Service'];

/** Whole dollars (spec §9), rounded once at the end so sums do not drift. */
const whole = (n: number) => Math.round(n);
const sum = (ns: number[]) => ns.reduce((s, n) => s + n, 0);
const byAmount = <T extends { amount: number }>(a: T, b: T) => b.amount - a.amount;

/** The last 12 months (YYYY-MM) up to and including `now`'s, oldest first. */
export function lastTwelveMonths(now: Date): string[] {
  return Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11 + i, 1)).toISOString().slice(0, 7));
}

/**
 * The dashboard of spec §2.10 over every account that answered: month totals, accounts highest
 * first, EC2/RDS/all services, the environment tag's values highest first, the year by month,
 * and estimates (the month to date plus its forecast rest; the next 12 months). An estimate is
 * null only when no account has enough history for one; accounts without it add nothing.
 */
export function aggregateCosts(outcomes: AccountOutcome[], now: Date): CostData {
  const accounts = outcomes.flatMap((o) => (o.ok ? [o.costs] : []));
  const months = lastTwelveMonths(now);
  const monthOf = (a: AccountCosts, m: string) => a.months.find((x) => x.month === m)?.amount ?? 0;
  const current = months[11]!;
  const last = months[10]!;

  const environments = new Map<string, number>();
  for (const a of accounts) for (const [tag, amount] of Object.entries(a.environments)) environments.set(tag, (environments.get(tag) ?? 0) + amount);
  const service = (names: string[]) => sum(accounts.map((a) => sum(names.map((n) => a.services[n] ?? 0))));
  const estimate = (pick: (a: AccountCosts) => number | null) => {
    const known = accounts.filter((a) => pick(a) !== null);
    return known.length ? whole(sum(known.map((a) => pick(a)!))) : null;
  };

  return {
    costForTheLastMonth: whole(sum(accounts.map((a) => monthOf(a, last)))),
    costForTheCurrentMonth: whole(sum(accounts.map((a) => monthOf(a, current)))),
    byAccount: accounts.map((a) => ({ awsAccountId: a.awsAccountId, accountName: a.accountName, amount: whole(monthOf(a, current)) })).sort(byAmount),
    byService: {
      ec2: whole(service(EC2_SERVICES)),
      rds: whole(service(RDS_SERVICES)),
      allServices: whole(sum(accounts.map((a) => sum(Object.values(a.services))))),
    },
    byEnvironment: [...environments.entries()].map(([tagValue, amount]) => ({ tagValue, amount: whole(amount) })).sort(byAmount),
    yearlyByMonth: months.map((month) => ({ month, amount: whole(sum(accounts.map((a) => monthOf(a, month)))) })),
    estimates: {
      currentMonth: estimate((a) => (a.forecast.restOfMonth === null ? null : monthOf(a, current) + a.forecast.restOfMonth)),
      nextYear: estimate((a) => a.forecast.nextYear),
    },
    failures: outcomes.flatMap((o) => (o.ok ? [] : [{ awsAccountId: o.awsAccountId, message: o.message }])),
  };
}
