import { describe, expect, it } from 'vitest';
import { ReportBody, reportMessages } from '@gantry/contracts';
import { emptyReportForm, toReportInput, type ReportFormValues } from './report-form';

const form = (over: Partial<ReportFormValues> = {}): ReportFormValues => ({
  ...emptyReportForm(),
  reportName: 'Weekly costs',
  awsAccountIds: ['123456789012'],
  regions: ['eu-central-1'],
  emails: ['ops@example.com'],
  ...over,
});
const issues = (v: ReportFormValues) => {
  const r = ReportBody.safeParse(toReportInput(v));
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path[0], i.message]));
};

describe('report form (spec §5)', () => {
  it('accepts a complete report, without a tag sent as null', () => {
    const r = ReportBody.safeParse(toReportInput(form()));
    expect(r.success && r.data.costAllocationTag).toBeNull();
  });

  it('needs a name of at least 3 characters, accounts, regions and e-mails', () => {
    expect(issues(form({ reportName: 'ab' })).reportName).toBe(reportMessages.name);
    expect(issues(form({ reportName: 'abc' })).reportName).toBeUndefined();
    expect(issues(form({ awsAccountIds: [] })).awsAccountIds).toBe(reportMessages.accounts);
    expect(issues(form({ regions: [] })).regions).toBe(reportMessages.regions);
    expect(issues(form({ emails: [] })).emails).toBe(reportMessages.emails);
  });

  it('strips spaces from e-mails and refuses invalid ones', () => {
    const r = ReportBody.safeParse(toReportInput(form({ emails: [' ops @example.com '] })));
    expect(r.success && r.data.emails).toEqual(['ops@example.com']);
    expect(issues(form({ emails: ['not-an-email'] })).emails).toBeDefined();
  });

  it('keeps an optional cost allocation tag', () => {
    const r = ReportBody.safeParse(toReportInput(form({ costAllocationTag: ' gantry:environment ' })));
    expect(r.success && r.data.costAllocationTag).toBe('gantry:environment');
  });
});
