/**
 * What other modules see of notifications (`needs.notifications`): `serviceDeployed` for a finished
 * Kubernetes service deploy, `notify` for any other project event. Both reach the subscribed members'
 * drawers and the project's Slack channel.
 */
export type { NotificationsService } from './notifications.service.js';
export type { ProjectEvent, ServiceDeployed } from './notifications.service.js';
