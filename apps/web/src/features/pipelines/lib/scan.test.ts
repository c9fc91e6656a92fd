import { describe, expect, it } from 'vitest';
import { containerScanOf, containerScanSummary, pushedImageOf, referenceParts, shortDigest, shortReference, shortTag, stepScanBadge } from './scan';

const IMAGE = {
  reference: '127.0.0.1:5000/team/web:4f2a9c8',
  digest: 'sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
  registry: 'local',
  repository: 'team/web',
  tag: '4f2a9c8',
};

describe('container scan badge (spec delivery §4)', () => {
  it('is absent when the step has no reports, or only a pushed image (no scanner ran)', () => {
    expect(containerScanOf({ reports: null })).toBeNull();
    expect(stepScanBadge({ reports: null })).toBeNull();
    expect(stepScanBadge({ reports: {} })).toBeNull();
    expect(stepScanBadge({ reports: { image: IMAGE } })).toBeNull();
    expect(stepScanBadge({ reports: { image: IMAGE, containerScan: null } })).toBeNull();
    expect(stepScanBadge({ reports: { containerScan: 'COMPLETE' } })).toBeNull();
    expect(stepScanBadge({ reports: { containerScan: [] } })).toBeNull();
  });

  it('shows the scan when one ran: failed, issues counted over severities, or none', () => {
    expect(stepScanBadge({ reports: { image: IMAGE, containerScan: { status: 'FAILED', statusDescription: '', severityCounts: {} } } })).toEqual({
      text: 'Scan failed',
      tone: 'failed',
    });
    expect(containerScanSummary({ status: 'FAILED', statusDescription: 'Scanner timed out' })).toEqual({ text: 'Scanner timed out', tone: 'failed' });
    expect(stepScanBadge({ reports: { containerScan: { status: 'COMPLETE', severityCounts: { HIGH: 2, LOW: 3 } } } })).toEqual({
      text: '5 security issues',
      tone: 'issues',
    });
    expect(stepScanBadge({ reports: { containerScan: { status: 'COMPLETE', severityCounts: {} } } })).toEqual({ text: 'No security issues', tone: 'ok' });
  });
});

describe('pushed image (spec delivery §9)', () => {
  it('reads reports.image, and nothing without a reference', () => {
    expect(pushedImageOf({ reports: { image: IMAGE } })).toEqual(IMAGE);
    expect(pushedImageOf({ reports: null })).toBeNull();
    expect(pushedImageOf({ reports: { containerScan: { status: 'COMPLETE' } } })).toBeNull();
    expect(pushedImageOf({ reports: { image: { digest: 'sha256:1' } } })).toBeNull();
    expect(pushedImageOf({ reports: { image: 'x' } })).toBeNull();
  });

  it('shows registry/repository:tag and the digest with 7 characters, a commit tag cut to 7', () => {
    expect(shortReference(IMAGE)).toBe('127.0.0.1:5000/team/web:4f2a9c8');
    const full = { ...IMAGE, tag: '4f2a9c81d07e5b3a6c9d8e7f1a2b3c4d5e6f7a8b', reference: '127.0.0.1:5000/team/web:4f2a9c81d07e5b3a6c9d8e7f1a2b3c4d5e6f7a8b' };
    expect(shortReference(full)).toBe('127.0.0.1:5000/team/web:4f2a9c8');
    expect(shortReference({ ...IMAGE, tag: 'release-2026', reference: 'r.example.com/web:release-2026' })).toBe('r.example.com/web:release-2026');
    expect(shortTag('latest')).toBe('latest');
    expect(shortDigest(IMAGE.digest)).toBe('sha256:0123456');
    expect(shortDigest('0123456789')).toBe('0123456');
    expect(referenceParts(IMAGE)).toEqual({ host: '127.0.0.1:5000', name: 'team/web:4f2a9c8' });
    expect(referenceParts({ ...IMAGE, reference: 'web:4f2a9c8' })).toEqual({ host: '', name: 'web:4f2a9c8' });
  });
});
