import { Anchor, Button, Card, Stack, Text } from '@mantine/core';
import { IconMapPinOff, IconRocket } from '@tabler/icons-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { lastGoodVersions } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast, UPGRADE_PATH } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { toastClearance } from '../../../ui/toast-clearance';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useStage, useStages } from '../api/stages';
import { useHistory } from '../api/deployments';
import { DeploymentCard } from '../components/DeploymentCard';
import { DeploymentTimePanel } from '../components/DeploymentTimePanel';
import { useDeploymentUpdates } from '../hooks/use-deployment-updates';
import classes from './DeploymentInsightsPage.module.css';

/**
 * /environments/{stageId}/deployment-insights (also …/deployments): a card per deployment, latest
 * first and open, or the one named by the URL hash. /depolyment-history without an environment
 * lists the environments to pick from (our choice: the spec does not show it).
 */
export default function DeploymentInsightsPage() {
  const { stageId } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  useDeploymentUpdates(projectId || undefined);
  if (!stageId) return <PickEnvironment projectId={projectId} />;
  return <Insights projectId={projectId} stageId={stageId} />;
}

function Insights({ projectId, stageId }: { projectId: string; stageId: string }) {
  const { hash } = useLocation();
  const stage = useStage(projectId, stageId);
  // the deployments are asked once the environment's read answered it: an environment that is not there (deleted,
  // another project's) answers 404, and so would its deployments, each logged by the browser
  const history = useHistory(projectId, stageId, stage.isSuccess);
  const [openIds, setOpenIds] = useState<Set<string>>(new Set());
  const told = useRef(false);
  useErrorToast(history.error);
  const list = useMemo(() => history.data?.deployments ?? [], [history.data]);
  // the plan refused the history (402): its empty state leads to the upgrade
  const blocked = isPlanLimit(history.error);
  // the plan hides something: the history, or what the latest deployment leaves out (never an environment not yet deployed)
  const limited = blocked || Boolean(history.data?.limitedByPlan && list.length > 0);
  // a missing environment (deleted, or another project's) has nothing to deploy: no deployment is offered
  const unavailable = (stage.isError || history.isError) && !blocked;

  useEffect(() => {
    if (!list.length) return;
    const wanted = hash.replace(/^#/, '');
    setOpenIds((prev) => (prev.size ? prev : new Set([list.some((d) => d.id === wanted) ? wanted : list[0]!.id])));
  }, [list, hash]);
  useEffect(() => {
    if (limited && !told.current) {
      told.current = true;
      toast.info('Upgrade your plan to see more details for your deployments in the deployment insights page');
    }
  }, [limited]);

  const toggle = (id: string) =>
    setOpenIds((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Stack gap="lg">
      <PageHeader
        title="Deployment Insights"
        description={stage.data ? `Every deployment of ${stage.data.name}` : undefined}
        actions={
          !unavailable && (
            <Button variant="default" component={Link} to={`/environments/${stageId}`}>
              View Environment
            </Button>
          )
        }
      />
      <div className={classes.layout}>
        {/* Limited by the plan, the list is the latest deployment alone: the toasts (the plan's info among them) open
            below it and the deployment time beside it, not over the time's title or the card's end (1366×768). */}
        <div className={classes.columns} ref={limited ? toastClearance : undefined}>
          <Stack gap="sm" data-testid="deployment-list">
            {unavailable ? (
              <Card withBorder radius="md" padding={0}>
                <EmptyState
                  title="Environment not available"
                  icon={<IconMapPinOff size={28} stroke={1.5} />}
                  description={errorMessage(stage.error ?? history.error, 'This environment could not be loaded.')}
                  action={
                    <Button variant="default" component={Link} to="/environments">
                      Back to Environments
                    </Button>
                  }
                />
              </Card>
            ) : history.isPending ? (
              <Text size="sm" c="dimmed">
                Loading…
              </Text>
            ) : !list.length ? (
              <Card withBorder radius="md" padding={0}>
                <EmptyState
                  title="No deployments yet"
                  icon={<IconRocket size={28} stroke={1.5} />}
                  color="indigo"
                  description="Deploy the environment to see every run here."
                  action={
                    blocked ? (
                      <Button component={Link} to={UPGRADE_PATH}>
                        Upgrade Plan
                      </Button>
                    ) : (
                      <Button component={Link} to={`/environments/${stageId}`}>
                        Create new Deployment
                      </Button>
                    )
                  }
                />
              </Card>
            ) : (
              list.map((d) => (
                <DeploymentCard
                  key={d.id}
                  d={d}
                  stageId={stageId}
                  currentDeploymentId={stage.data?.currentDeploymentId ?? null}
                  open={openIds.has(d.id)}
                  onToggle={() => toggle(d.id)}
                  lastGood={lastGoodVersions(list, d.id)}
                />
              ))
            )}
            {limited && list.length > 0 && (
              <Text size="sm" c="dimmed">
                Older deployments come with a bigger plan.{' '}
                <Anchor component={Link} to={UPGRADE_PATH} size="sm">
                  Upgrade Plan
                </Anchor>
              </Text>
            )}
          </Stack>
          <DeploymentTimePanel projectId={projectId} highlight={stageId} />
        </div>
      </div>
    </Stack>
  );
}

function PickEnvironment({ projectId }: { projectId: string }) {
  const stages = useStages(projectId);
  return (
    <Stack gap="lg">
      <PageHeader title="Deployment Insights" description="Choose an environment to see its deployments" />
      <Card withBorder radius="md">
        <Stack gap="xs">
          {stages.isPending && (
            <Text size="sm" c="dimmed">
              Loading…
            </Text>
          )}
          {stages.isSuccess && !stages.data.length && (
            <Text size="sm" c="dimmed">
              No data available
            </Text>
          )}
          {stages.data?.map((s) => (
            <Anchor key={s.id} component={Link} to={`/environments/${s.id}/deployment-insights`}>
              {s.name}
            </Anchor>
          ))}
        </Stack>
      </Card>
      <DeploymentTimePanel projectId={projectId} />
    </Stack>
  );
}
