/**
 * The Kubernetes services feature's public surface: its routes, and what the cluster dashboard and the overview
 * show of services — the services of a cluster, the deploy dialog and deploying modal, undeploy, the Kubernetes
 * summary. It reads clusters through the clusters feature's index, which never imports this one back.
 */
export { serviceRoutes } from './routes';
export { useMicroservices } from './api/list-microservices';
export { useMicroservicesStatus, useDeployedMicroservices, type ServiceInCluster } from './api/deployments';
export { serviceInClusterRoute, serviceRoute } from './api/keys';
export { DeployDialog } from './components/DeployDialog';
export { DeployingModal, type RolloutState } from './components/DeployingModal';
export { useHandedRollout } from './hooks/use-handed-rollout';
export { UndeployModal } from './components/UndeployModal';
export { HealthBadge } from './components/HealthBadge';
export { ServiceDeployBadge } from './components/ServiceDeployBadge';
export { shortVersion } from './lib/versions';
export { KubernetesSummary } from './components/KubernetesSummary';
