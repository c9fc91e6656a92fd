import type { BuildStep } from '@gantry/contracts';

export type ContainerScan = {
  imageName?: string;
  imageTag?: string;
  status?: string;
  statusDescription?: string;
  severityCounts?: Record<string, number>;
};

export const containerScanOf = (step: Pick<BuildStep, 'reports'>): ContainerScan | null => {
  const scan = step.reports?.containerScan;
  return scan && typeof scan === 'object' ? (scan as ContainerScan) : null;
};

/**
 * The scan summary of a step card (spec §4): a FAILED scan shows its description ('Scan failed');
 * otherwise the sum of the severity counts, '{n} security issues', or 'No security issues'.
 */
export function containerScanSummary(scan: ContainerScan | null): { text: string; tone: 'ok' | 'issues' | 'failed' } {
  if (scan?.status === 'FAILED') return { text: scan.statusDescription || 'Scan failed', tone: 'failed' };
  const n = Object.values(scan?.severityCounts ?? {}).reduce((sum, c) => sum + (Number(c) || 0), 0);
  return n > 0 ? { text: `${n} security issues`, tone: 'issues' } : { text: 'No security issues', tone: 'ok' };
}
