import { ADVISOR_RULES as R } from '@gantry/contracts';

/**
 * The waste advisor rules of spec §9, over one value per day (a day without data is a missing
 * entry: it never counts as a low-use day, and counts as no traffic for load balancers and DBs).
 */

/** A low-use EC2 day: average CPU at most 10 % and NetworkIn + NetworkOut at most 5 MB. */
export const isLowUseDay = (cpuPercent: number, networkBytes: number) => cpuPercent <= R.ec2CpuPercentMax && networkBytes <= R.ec2NetworkBytesMax;

/** Low utilization: 4 or more low-use days among the last 14 (days as UTC day starts in ms). */
export function lowUseDays(cpu: Map<number, number>, network: Map<number, number>): number {
  let n = 0;
  for (const [day, c] of cpu) {
    const bytes = network.get(day);
    if (bytes !== undefined && isLowUseDay(c, bytes)) n++;
  }
  return n;
}
export const isLowUtilization = (days: number) => days >= R.ec2LowDaysMin;

/** Idle load balancer: fewer than 100 requests (classic, application) or flows (network, gateway) on every one of the 7 days. */
export const isIdleLoadBalancer = (dailyCounts: number[]) => dailyCounts.every((n) => n < R.lbRequestsPerDayMin);

/** Idle DB instance: 0 connections over the 7 days. */
export const isIdleDatabase = (dailyMaxConnections: number[]) => dailyMaxConnections.every((n) => n <= R.rdsConnectionsMax);
