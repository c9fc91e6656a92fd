import { describe, expect, it } from 'vitest';
import { advisorNavigationState, ageText, queryFromState } from './advisor-state';

describe('advisor navigation state (spec §2.1)', () => {
  it('round-trips an environment query with its tag', () => {
    const q = { awsAccountId: '123456789012', awsRegion: 'eu-west-1', tagKey: 'gantry:environment', tagValue: 'stage-1' };
    expect(advisorNavigationState(q)).toEqual({
      awsAccount: { awsAccountId: '123456789012', awsRegion: 'eu-west-1' },
      tagKey: 'gantry:environment',
      tagValue: 'stage-1',
    });
    expect(queryFromState(advisorNavigationState(q))).toEqual(q);
  });

  it('needs both account and region, and drops a half tag', () => {
    expect(queryFromState(null)).toBeNull();
    expect(queryFromState({ awsAccount: { awsAccountId: '1' } })).toBeNull();
    expect(queryFromState({ awsAccount: { awsAccountId: '1', awsRegion: 'us-east-1' }, tagKey: 'k' })).toEqual({ awsAccountId: '1', awsRegion: 'us-east-1' });
  });
});

describe('result age', () => {
  it('reads as words at each boundary', () => {
    expect(ageText(59)).toBe('just now');
    expect(ageText(60)).toBe('1 minute ago');
    expect(ageText(3599)).toBe('59 minutes ago');
    expect(ageText(7200)).toBe('2 hours ago');
    expect(ageText(86400)).toBe('1 day ago');
  });
});
