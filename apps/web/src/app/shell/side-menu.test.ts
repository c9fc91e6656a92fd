import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/errors';
import { costToolsVisible } from '../../features/schedules';
import { visibleMenu } from './SideMenu';

const labels = (costTools: boolean) => visibleMenu(costTools).map((e) => e.label);

describe('side menu (spec §2.1)', () => {
  it('shows the Cloud Waste Manager section unless the schedules list answers 402', () => {
    expect(costToolsVisible(null)).toBe(true);
    expect(costToolsVisible(new ApiError(500, { message: 'down' }))).toBe(true);
    expect(costToolsVisible(new ApiError(403, { message: 'no' }))).toBe(true);
    expect(costToolsVisible(new ApiError(402, { message: 'Upgrade' }))).toBe(false);
  });

  it('drops only that section', () => {
    expect(labels(true)).toContain('Cloud Waste Manager');
    expect(labels(false)).not.toContain('Cloud Waste Manager');
    expect(labels(false)).toEqual(labels(true).filter((l) => l !== 'Cloud Waste Manager'));
    const tools = visibleMenu(true).find((e) => e.label === 'Cloud Waste Manager');
    expect(tools?.children?.map((c) => c.to)).toEqual(['/tools/cost-explorer', '/tools/schedules', '/tools/advisor']);
  });
});
