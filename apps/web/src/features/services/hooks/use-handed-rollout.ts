import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useDeploymentStatus, type ServiceInCluster } from '../api/deployments';
import type { RolloutState } from '../components/DeployingModal';
import { handedRollout } from '../lib/rollout';

/**
 * The rollout the deploying modal follows on the cluster dashboard: one deployed there, or one a service's page
 * handed over in router state. The hand-over is marked seen as soon as it is taken, so a reload or a Back to the same
 * entry shows the modal again only while the server still reports the rollout under way, not after it finished.
 */
export function useHandedRollout(projectId: string) {
  const { pathname, state } = useLocation() as { pathname: string; state: Partial<RolloutState & { seen: boolean }> | null };
  const navigate = useNavigate();
  const handed = state?.rollout ?? null;
  const fresh = Boolean(handed && !state?.seen);
  const [rollout, setRollout] = useState<ServiceInCluster | null>(fresh ? handed : null);
  const restored = handed && !fresh && !rollout ? handed : null;
  const status = useDeploymentStatus(projectId, restored ?? {}, { enabled: Boolean(restored) });
  const decision = handedRollout(fresh, { read: status.isFetched && !status.isFetching, replicas: status.isError ? null : status.data?.replicas });

  useEffect(() => {
    if (fresh) navigate(pathname, { replace: true, state: { rollout: handed, seen: true } });
    else if (restored && decision === 'follow') setRollout(restored);
    else if (restored && decision === 'forget') navigate(pathname, { replace: true, state: null });
  }, [fresh, handed, restored, decision, pathname, navigate]);

  return {
    rollout,
    follow: setRollout,
    close: () => {
      setRollout(null);
      if (handed) navigate(pathname, { replace: true, state: null });
    },
  };
}
