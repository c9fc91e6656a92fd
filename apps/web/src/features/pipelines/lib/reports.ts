import type { BuildStep } from '@gantry/contracts';
import { containerScanOf, containerScanSummary, pushedImageOf, type ScanSummary } from './scan';

/** What a build's Reports cell tells of it: its steps' artifacts and pushed images, and its container scans together. */
export interface BuildReports {
  artifacts: number;
  images: number;
  /** The scans' summary (spec §4): a failed scan's description, else the issues over all the scans; null with no scan. */
  issues: ScanSummary | null;
}

/**
 * A build's reports (spec §3: a step's artifacts — files, reports, json — its container scan, and a docker-push step's
 * pushed image), or null when it has none: then its Reports cell reads '—'. The one rule of the pipelines list (its
 * latest build) and of the Builds tab, so one build reads the same in both.
 */
export function buildReports(steps: Pick<BuildStep, 'artifacts' | 'reports'>[]): BuildReports | null {
  const artifacts = steps.reduce((n, s) => n + s.artifacts.length, 0);
  const scans = steps.map(containerScanOf).filter((s) => s !== null);
  const failedScan = scans.find((s) => s.status === 'FAILED');
  const total = scans.reduce((n, s) => n + Object.values(s.severityCounts ?? {}).reduce((a, c) => a + (Number(c) || 0), 0), 0);
  const issues = scans.length ? containerScanSummary(failedScan ?? { severityCounts: { all: total } }) : null;
  const images = steps.filter((s) => pushedImageOf(s) !== null).length;
  return artifacts || images || issues ? { artifacts, images, issues } : null;
}
