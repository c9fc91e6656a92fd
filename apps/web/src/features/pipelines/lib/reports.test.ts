import { describe, expect, it } from 'vitest';
import type { BuildStep } from '@gantry/contracts';
import { buildReports } from './reports';

type Step = Pick<BuildStep, 'artifacts' | 'reports'>;
const step = (o: Partial<Step> = {}): Step => ({ artifacts: [], reports: null, ...o });
const artifact = { id: 'a', kind: 'files', name: 'bundle', location: 'x', files: 1, size: 1 } as const;

describe("a build's reports (the pipelines list's and the Builds tab's Reports cell)", () => {
  it('none without artifacts, scans or pushed images: the cell reads —', () => {
    expect(buildReports([])).toBeNull();
    expect(buildReports([step(), step({ reports: { skipped: 'when: false' } })])).toBeNull();
  });

  it("counts the steps' artifacts and pushed images, and sums the scans' issues (a failed scan tells its description)", () => {
    const image = { image: { reference: 'r/app:1', digest: 'sha256:abc' } };
    expect(buildReports([step({ artifacts: [artifact, artifact] }), step({ reports: image })])).toEqual({ artifacts: 2, images: 1, issues: null });
    const scan = (severityCounts: Record<string, number>, status = 'SUCCEEDED') => step({ reports: { containerScan: { status, severityCounts } } });
    expect(buildReports([scan({ HIGH: 2 }), scan({ LOW: 1 })])?.issues).toEqual({ text: '3 security issues', tone: 'issues' });
    expect(buildReports([scan({})])?.issues).toEqual({ text: 'No security issues', tone: 'ok' });
    expect(buildReports([scan({ HIGH: 2 }), scan({}, 'FAILED')])?.issues).toEqual({ text: 'Scan failed', tone: 'failed' });
  });
});
