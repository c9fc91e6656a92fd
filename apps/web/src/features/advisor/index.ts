/** The Waste Advisor's public surface: its route, and the environment screens' summary and statistics panel over the same cached results. */
export { advisorRoutes } from './routes';
export { AdvisorSummary, AdvisorStatsPanel } from './components/EnvironmentAdvisor';
export { advisorNavigationState } from './lib/advisor-state';
export { ageText } from './lib/advisor-state';
