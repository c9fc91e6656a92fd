/** What other modules see of the cost explorer: its api (`needs.costExplorer`). */
export type { CostExplorerService } from './cost-explorer.service.js';
