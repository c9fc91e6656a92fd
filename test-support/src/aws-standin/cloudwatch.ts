import { AwsError, jsonAnswer, members, queryAnswer, structs, type Answer, type Params } from './protocol.js';
import type { StandinWorld } from './state.js';

export const CLOUDWATCH_NS = 'http://monitoring.amazonaws.com/doc/2010-08-01/';
const DAY = 86_400_000;

interface Query {
  Id: string;
  Label?: string;
  Namespace: string;
  MetricName: string;
  Dimensions: { Name: string; Value: string }[];
  Period: number;
}

/** The recorded daily series of one query, as the points between start and end, newest first (TimestampDescending). */
function answer(w: StandinWorld, region: string, q: Query, start: number, end: number, now: number) {
  if (q.Period !== 86400) throw new AwsError(400, 'InvalidParameterValue', 'The stand-in records daily series: Period must be 86400');
  const series = w.metrics.find(
    (m) =>
      m.region === region &&
      m.namespace === q.Namespace &&
      m.metricName === q.MetricName &&
      q.Dimensions.length === 1 &&
      q.Dimensions[0]!.Name === m.dimension.name &&
      q.Dimensions[0]!.Value === m.dimension.value,
  );
  const today = Math.floor(now / DAY) * DAY;
  const points: { t: number; v: number }[] = [];
  if (series)
    series.daily.forEach((v, i) => {
      const t = today - (series.daily.length - i) * DAY;
      if (t >= start && t < end) points.push({ t, v });
    });
  points.sort((a, b) => b.t - a.t);
  return { Id: q.Id, Label: q.Label ?? q.MetricName, StatusCode: 'Complete', points };
}

/** CloudWatch GetMetricData over recorded series, in AWS query (the CLI) and AWS JSON 1.0 (SDK v3) forms. */
export function cloudwatchQuery(w: StandinWorld, region: string, action: string, p: Params, now: number): Answer {
  if (action !== 'GetMetricData') throw new AwsError(400, 'InvalidAction', `Could not find operation ${action} for version 2010-08-01`);
  const queries: Query[] = structs(p, 'MetricDataQueries').map((s) => ({
    Id: s.Id!,
    Label: s.Label,
    Namespace: s['MetricStat.Metric.Namespace']!,
    MetricName: s['MetricStat.Metric.MetricName']!,
    Dimensions: structs(Object.fromEntries(Object.entries(s).filter(([k]) => k.startsWith('MetricStat.Metric.'))), 'MetricStat.Metric.Dimensions').map((d) => ({
      Name: d.Name!,
      Value: d.Value!,
    })),
    Period: Number(s['MetricStat.Period']),
  }));
  const start = Date.parse(p.StartTime!);
  const end = Date.parse(p.EndTime!);
  const results = queries.map((q) => answer(w, region, q, start, end, now));
  return queryAnswer(CLOUDWATCH_NS, action, {
    MetricDataResults: members(
      results.map((r) => ({
        Id: r.Id,
        Label: r.Label,
        StatusCode: r.StatusCode,
        Timestamps: members(r.points.map((x) => new Date(x.t).toISOString())),
        Values: members(r.points.map((x) => x.v)),
      })),
    ),
    Messages: '',
  });
}

type JsonQuery = {
  Id: string;
  Label?: string;
  MetricStat?: { Metric: { Namespace: string; MetricName: string; Dimensions?: { Name: string; Value: string }[] }; Period: number };
};
export function cloudwatchJson(w: StandinWorld, region: string, action: string, body: Record<string, unknown>, now: number): Answer {
  if (action !== 'GetMetricData') throw new AwsError(400, 'UnknownOperationException', `Unknown operation ${action}`);
  const queries = (body.MetricDataQueries as JsonQuery[] | undefined) ?? [];
  if (queries.length > 500) throw new AwsError(400, 'InvalidParameterValue', 'The collection MetricDataQueries must not have a size greater than 500.');
  const toMs = (v: unknown) => (typeof v === 'number' ? v * 1000 : Date.parse(String(v)));
  const start = toMs(body.StartTime);
  const end = toMs(body.EndTime);
  const results = queries.map((q) => {
    if (!q.MetricStat) throw new AwsError(400, 'InvalidParameterValue', 'The stand-in answers MetricStat queries only');
    const r = answer(
      w,
      region,
      { Id: q.Id, Label: q.Label, ...q.MetricStat.Metric, Dimensions: q.MetricStat.Metric.Dimensions ?? [], Period: q.MetricStat.Period },
      start,
      end,
      now,
    );
    return { Id: r.Id, Label: r.Label, StatusCode: r.StatusCode, Timestamps: r.points.map((x) => x.t / 1000), Values: r.points.map((x) => x.v) };
  });
  return jsonAnswer('1.0', { MetricDataResults: results, Messages: [] });
}
