import { describe, expect, it } from 'vitest';
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import type { Build, BuildStep } from '@gantry/contracts';
import { applyStepStreaming, applyStepUpdate, keepFurther } from './apply-step-update';
import { pipelineKeys } from './keys';

const P = 'project';
const step = (name: string, status: BuildStep['status']) => ({ name, status, startDate: null, stopDate: null, errorMessage: null }) as BuildStep;
const build = (status: Build['status'], steps: BuildStep[]) => ({ id: 'b1', pipelineId: 'pl', status, stopDate: null, steps }) as unknown as Build;
const statuses = (b: Build | undefined) => [b?.status, ...(b?.steps.map((s) => `${s.name}:${s.status}`) ?? [])];

function cache(b: Build) {
  const qc = new QueryClient();
  qc.setQueryData(pipelineKeys.build(P, 'pl', '7'), b);
  qc.setQueryData<InfiniteData<{ builds: Build[] }>>(pipelineKeys.builds(P, 'pl', ''), { pages: [{ builds: [b] }], pageParams: [0] });
  return qc;
}
const cachedBuild = (qc: QueryClient) => qc.getQueryData<Build>(pipelineKeys.build(P, 'pl', '7'));
const listed = (qc: QueryClient) => qc.getQueryData<InfiniteData<{ builds: Build[] }>>(pipelineKeys.builds(P, 'pl', ''))?.pages[0]!.builds[0];

describe('step:update in the cache', () => {
  it('shows the step running (and the build with it) on the build page and in the list at once', () => {
    const qc = cache(build('QUEUED', [step('First', null), step('Second', null)]));
    applyStepUpdate(qc, P, { pipelineId: 'pl', buildId: 'b1', step: 'First', status: 'RUNNING', startDate: '2026-01-01T00:00:00.000Z' });
    expect(statuses(cachedBuild(qc))).toEqual(['RUNNING', 'First:RUNNING', 'Second:null']);
    expect(cachedBuild(qc)?.steps[0]!.startDate).toBe('2026-01-01T00:00:00.000Z');
    expect(statuses(listed(qc))).toEqual(['RUNNING', 'First:RUNNING', 'Second:null']);
    applyStepUpdate(qc, P, { pipelineId: 'pl', buildId: 'b1', step: 'First', status: 'SUCCEEDED', stopDate: '2026-01-01T00:00:01.000Z' });
    expect(statuses(cachedBuild(qc))).toEqual(['RUNNING', 'First:SUCCEEDED', 'Second:null']);
    expect(cachedBuild(qc)?.steps[0]).toMatchObject({ startDate: '2026-01-01T00:00:00.000Z', stopDate: '2026-01-01T00:00:01.000Z' });
  });

  it('never takes a step back, and refetches a build cached without the step', () => {
    const qc = cache(build('RUNNING', [step('First', 'SUCCEEDED')]));
    applyStepUpdate(qc, P, { pipelineId: 'pl', buildId: 'b1', step: 'First', status: 'RUNNING' });
    expect(statuses(cachedBuild(qc))).toEqual(['RUNNING', 'First:SUCCEEDED']);
    applyStepUpdate(qc, P, { pipelineId: 'pl', buildId: 'b1', step: 'Later', status: 'RUNNING' });
    expect(qc.getQueryState(pipelineKeys.build(P, 'pl', '7'))?.isInvalidated).toBe(true);
  });

  it('a log chunk of a step still shown pending shows it running', () => {
    const qc = cache(build('QUEUED', [step('First', null)]));
    applyStepStreaming(qc, P, { buildId: 'b1', step: 'First' });
    expect(statuses(cachedBuild(qc))).toEqual(['RUNNING', 'First:RUNNING']);
    applyStepStreaming(qc, P, { buildId: 'other', step: 'First' });
    expect(statuses(cachedBuild(qc))).toEqual(['RUNNING', 'First:RUNNING']);
  });

  it('a poll answered after an event does not take the build back', () => {
    const pushed = build('SUCCEEDED', [step('First', 'SUCCEEDED')]);
    const polled = build('RUNNING', [step('First', 'RUNNING')]);
    expect(statuses(keepFurther(pushed, polled) as Build)).toEqual(['SUCCEEDED', 'First:SUCCEEDED']);
    const newer = build('RUNNING', [step('First', 'RUNNING')]);
    expect(keepFurther(build('QUEUED', [step('First', null)]), newer)).toBe(newer);
  });
});
