import { AwsError, jsonAnswer, type Answer } from './protocol.js';
import type { StandinCost, StandinWorld } from './state.js';

type Expression = { Dimensions?: { Key: string; Values: string[] }; Tags?: { Key: string; Values: string[] }; And?: Expression[]; Or?: Expression[] };
const money = (n: number) => ({ Amount: n.toFixed(10).replace(/0+$/, '').replace(/\.$/, ''), Unit: 'USD' });
const ENV_TAG = 'gantry:environment';

function matches(c: StandinCost, e: Expression | undefined): boolean {
  if (!e) return true;
  if (e.And) return e.And.every((x) => matches(c, x));
  if (e.Or) return e.Or.some((x) => matches(c, x));
  if (e.Dimensions) {
    const v =
      e.Dimensions.Key === 'SERVICE'
        ? c.service
        : e.Dimensions.Key === 'LINKED_ACCOUNT'
          ? c.account
          : e.Dimensions.Key === 'REGION'
            ? (c.region ?? 'us-east-1')
            : undefined;
    return v !== undefined && e.Dimensions.Values.includes(v);
  }
  if (e.Tags) return e.Tags.Key === ENV_TAG && e.Tags.Values.includes(c.environment);
  return true;
}

/** Buckets of [start, end): days or calendar months. */
function periods(start: string, end: string, granularity: string) {
  const out: { Start: string; End: string }[] = [];
  let d = new Date(`${start}T00:00:00Z`);
  const stop = new Date(`${end}T00:00:00Z`);
  while (d < stop) {
    const next = granularity === 'DAILY' ? new Date(d.getTime() + 86_400_000) : new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
    const e = next < stop ? next : stop;
    out.push({ Start: d.toISOString().slice(0, 10), End: e.toISOString().slice(0, 10) });
    d = e;
  }
  return out;
}

/** Cost Explorer (AWS JSON 1.1): GetCostAndUsage by LINKED_ACCOUNT, SERVICE or the environment tag, and GetCostForecast. */
export function costExplorer(w: StandinWorld, action: string, body: Record<string, unknown>, now: number): Answer {
  const tp = body.TimePeriod as { Start: string; End: string } | undefined;
  if (!tp?.Start || !tp.End || tp.Start >= tp.End) throw new AwsError(400, 'ValidationException', 'Start date must be before end date');
  if (action === 'GetCostAndUsage') {
    const groupBys = (body.GroupBy as { Type: string; Key: string }[] | undefined) ?? [];
    if (groupBys.length > 2) throw new AwsError(400, 'ValidationException', 'Group by dimension/tag count cannot be more than 2');
    const groupBy = groupBys[0];
    // a TAG group answers 'key$value' ('key$' untagged); the stand-in's costs carry only the environment tag
    const keyOf = (c: StandinCost, g: { Type: string; Key: string }) =>
      g.Type === 'TAG'
        ? `${g.Key}$${g.Key === ENV_TAG ? c.environment : ''}`
        : g.Key === 'SERVICE'
          ? c.service
          : g.Key === 'REGION'
            ? (c.region ?? 'us-east-1')
            : c.account;
    const results = periods(tp.Start, tp.End, String(body.Granularity ?? 'MONTHLY')).map((p) => {
      const rows = w.costs.filter((c) => c.date >= p.Start && c.date < p.End && matches(c, body.Filter as Expression | undefined));
      const total = rows.reduce((s, c) => s + c.amount, 0);
      if (!groupBy) return { TimePeriod: p, Total: { UnblendedCost: money(total) }, Groups: [], Estimated: p.End > new Date(now).toISOString().slice(0, 10) };
      const groups = new Map<string, number>();
      for (const c of rows) {
        const key = JSON.stringify(groupBys.map((g) => keyOf(c, g)));
        groups.set(key, (groups.get(key) ?? 0) + c.amount);
      }
      return {
        TimePeriod: p,
        Total: {},
        Groups: [...groups.entries()].map(([k, v]) => ({ Keys: JSON.parse(k) as string[], Metrics: { UnblendedCost: money(v) } })),
        Estimated: p.End > new Date(now).toISOString().slice(0, 10),
      };
    });
    return jsonAnswer('1.1', { GroupDefinitions: groupBy ? groupBys : undefined, ResultsByTime: results, DimensionValueAttributes: [] });
  }
  if (action === 'GetCostForecast') {
    const today = new Date(now).toISOString().slice(0, 10);
    if (tp.Start < today) throw new AwsError(400, 'ValidationException', 'Start date must be equal to or later than the current date');
    const from = new Date(now - 90 * 86_400_000).toISOString().slice(0, 10);
    const history = w.costs.filter((c) => c.date < today && c.date >= from && matches(c, body.Filter as Expression | undefined));
    const days = new Set(history.map((c) => c.date)).size;
    if (w.forecastUnavailable || days < 30) throw new AwsError(400, 'DataUnavailableException', 'Insufficient amount of historical data to generate forecast.');
    const perDay = history.reduce((s, c) => s + c.amount, 0) / days;
    const buckets = periods(tp.Start, tp.End, String(body.Granularity ?? 'MONTHLY')).map((p) => {
      const n = (Date.parse(p.End) - Date.parse(p.Start)) / 86_400_000;
      return { TimePeriod: p, MeanValue: (perDay * n).toFixed(10) };
    });
    const total = buckets.reduce((s, b) => s + Number(b.MeanValue), 0);
    return jsonAnswer('1.1', { Total: money(total), ForecastResultsByTime: buckets });
  }
  throw new AwsError(400, 'UnknownOperationException', `Unknown operation ${action}`);
}
