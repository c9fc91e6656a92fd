export { aggregateCosts, lastTwelveMonths, type AccountCosts, type AccountOutcome } from './aggregate.js';
export { fetchAccountCosts, fetchReportLines, ENVIRONMENT_TAG, type ReportLine } from './cost-explorer.js';
