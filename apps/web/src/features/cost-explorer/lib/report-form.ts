import type { Report, ReportBody } from '@gantry/contracts';

/** The report form's values (spec §2.10, §5): the optional cost allocation tag is '' when none. */
export type ReportFormValues = {
  reportName: string;
  awsAccountIds: string[];
  regions: string[];
  emails: string[];
  granularity: 'WEEKLY' | 'MONTHLY';
  costAllocationTag: string;
};

export const emptyReportForm = (): ReportFormValues => ({
  reportName: '',
  awsAccountIds: [],
  regions: [],
  emails: [],
  granularity: 'WEEKLY',
  costAllocationTag: '',
});

export const reportFormFrom = (r: Report): ReportFormValues => ({
  reportName: r.reportName,
  awsAccountIds: r.awsAccountIds,
  regions: r.regions,
  emails: r.emails,
  granularity: r.granularity,
  costAllocationTag: r.costAllocationTag ?? '',
});

/** What ReportBody is given: no tag is null. (The contract strips spaces from the e-mails and checks them.) */
export const toReportInput = (v: ReportFormValues): ReportBody => ({ ...v, costAllocationTag: v.costAllocationTag.trim() || null });

/** Pickers show this many chosen values before '+N more' (spec §2.10). */
export const ACCOUNT_PILLS = 4;
export const EMAIL_PILLS = 2;
