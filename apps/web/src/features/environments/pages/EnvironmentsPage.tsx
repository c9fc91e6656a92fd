import { Button, Card, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconServer2 } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { COST_TAG_KEY, numericLimitMessage, numericLimitReached } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { CardGrid } from '../../../ui/CardGrid';
import { SkeletonCards } from '../../../ui/SkeletonCards';
import { useErrorToast } from '../../../ui/use-error-toast';
import { useStages } from '../api/stages';
import { useSchedules } from '../api/lookups';
import { EnvironmentCard } from '../components/EnvironmentCard';
import { useEnvironmentActions } from '../hooks/use-environment-actions';
import { Permitted } from '../../../ui/Permitted';
import { useDeploymentUpdates } from '../hooks/use-deployment-updates';
import { useSubscription } from '../../settings';

/** /environments (spec §2): environment cards, Create Environment, 2 skeleton cards, the "Infrastucture Builder" empty state. */
export default function EnvironmentsPage() {
  const projectId = useCurrentProject()?.id ?? '';
  useDeploymentUpdates(projectId || undefined);
  const navigate = useNavigate();
  const stages = useStages(projectId);
  const schedules = useSchedules(projectId);
  const actions = useEnvironmentActions(projectId);
  useErrorToast(stages.error);
  const costBlocked = isPlanLimit(schedules.error);
  const scheduleOf = (stageId: string) => {
    if (!schedules.data) return null;
    const rule = schedules.data.find((s) => s.resourcesTagKey === COST_TAG_KEY && s.resourcesTagValue === stageId);
    return rule && rule.state === 'ENABLED' ? 'ACTIVE' : 'NOT ACTIVE';
  };

  // the plan's environments all used: the server would refuse the form only once filled in (402), so say it here
  const subscription = useSubscription(projectId);
  const limit = stages.data ? numericLimitReached(subscription.data?.limitations, 'environmentsAllowed', stages.data.length) : null;
  const create = (
    <Permitted action="change">
      {(refused) =>
        refused ? (
          <Button disabled leftSection={<IconPlus size={16} />}>
            Create Environment
          </Button>
        ) : limit !== null ? (
          <Tooltip label={numericLimitMessage('environmentsAllowed', limit)} withArrow multiline maw={280}>
            <span style={{ display: 'inline-flex' }} data-refused="plan">
              <Button disabled leftSection={<IconPlus size={16} />}>
                Create Environment
              </Button>
            </span>
          </Tooltip>
        ) : (
          <Button component={Link} to="/environments/create" leftSection={<IconPlus size={16} />}>
            Create Environment
          </Button>
        )
      }
    </Permitted>
  );
  let body;
  if (stages.isPending && projectId) body = <SkeletonCards count={2} />;
  else if (stages.isError && !stages.data)
    body = (
      <Card withBorder radius="md">
        <Text c="red" size="sm">
          {errorMessage(stages.error)}
        </Text>
      </Card>
    );
  else if (!stages.data?.length)
    body = (
      <Card withBorder radius="md" padding={0}>
        <EmptyState
          title="Infrastucture Builder"
          icon={<IconServer2 size={28} stroke={1.5} />}
          color="indigo"
          description="Assemble environments from your components, preview a plan, deploy them to your cloud account and follow every deployment."
          action={create}
        />
      </Card>
    );
  else
    body = (
      <CardGrid data-testid="environments-grid">
        {stages.data.map((s) => (
          <EnvironmentCard
            key={s.id}
            stage={s}
            schedule={scheduleOf(s.id)}
            costBlocked={costBlocked}
            onOpen={() => navigate(`/environments/${s.id}`, { state: { advisor: null } })}
            onUndeploy={() => actions.askUndeploy(s)}
            onDelete={() => actions.askDelete(s)}
          />
        ))}
      </CardGrid>
    );
  return (
    <Stack gap="lg">
      <PageHeader title="Environments" description="Environments assembled from components and deployed to your cloud accounts" actions={create} />
      {body}
      {actions.modal}
    </Stack>
  );
}
