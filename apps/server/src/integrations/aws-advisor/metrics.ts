import { CloudWatchClient, GetMetricDataCommand, type MetricDataQuery } from '@aws-sdk/client-cloudwatch';

export interface DailyQuery {
  id: string;
  namespace: string;
  metric: string;
  dimension: { Name: string; Value: string };
  stat: 'Average' | 'Sum' | 'Maximum';
}
/** GetMetricData allows 500 queries per call. */
const BATCH = 500;
export const DAY_MS = 86_400_000;

/** One value per UTC day of [start, end) for each query (days without data are absent), by query id. */
export async function dailyMetrics(cw: CloudWatchClient, queries: DailyQuery[], start: Date, end: Date): Promise<Map<string, Map<number, number>>> {
  const out = new Map<string, Map<number, number>>(queries.map((q) => [q.id, new Map()]));
  for (let i = 0; i < queries.length; i += BATCH) {
    const batch: MetricDataQuery[] = queries.slice(i, i + BATCH).map((q) => ({
      Id: q.id,
      MetricStat: { Metric: { Namespace: q.namespace, MetricName: q.metric, Dimensions: [q.dimension] }, Period: 86_400, Stat: q.stat },
      ReturnData: true,
    }));
    let token: string | undefined;
    do {
      const page = await cw.send(new GetMetricDataCommand({ MetricDataQueries: batch, StartTime: start, EndTime: end, NextToken: token }));
      for (const r of page.MetricDataResults ?? []) {
        const series = out.get(r.Id ?? '');
        if (!series) continue;
        (r.Timestamps ?? []).forEach((t, n) => series.set(Math.floor(t.getTime() / DAY_MS) * DAY_MS, r.Values?.[n] ?? 0));
      }
      token = page.NextToken;
    } while (token);
  }
  return out;
}
