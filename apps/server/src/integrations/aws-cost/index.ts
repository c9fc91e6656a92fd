import { lazy } from '../../platform/lazy.js';
import type * as CostExplorer from './cost-explorer.js';

export { aggregateCosts, lastTwelveMonths, type AccountCosts, type AccountOutcome } from './aggregate.js';
export type { ReportLine } from './cost-explorer.js';

/** The Cost Explorer calls, with the AWS SDK client loaded on the first one rather than at start-up (issue 14). */
const costExplorer = lazy(() => import('./cost-explorer.js'));
export const fetchAccountCosts: typeof CostExplorer.fetchAccountCosts = async (...args) => (await costExplorer()).fetchAccountCosts(...args);
export const fetchReportLines: typeof CostExplorer.fetchReportLines = async (...args) => (await costExplorer()).fetchReportLines(...args);
