import { Alert, Badge, Button, Card, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { planActionTone } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { CardGrid } from '../../../ui/CardGrid';
import { CopyToClipboard } from '../../../ui/CopyToClipboard';
import { PageHeader } from '../../../ui/PageHeader';
import { toastClearance } from '../../../ui/toast-clearance';
import { useStage } from '../api/stages';
import { usePlan, useStageActions } from '../api/deployments';
import { providerLabel, toolLabel } from '../lib/labels';
import { LastDeployed } from '../components/LastDeployed';
import { useDeploymentUpdates } from '../hooks/use-deployment-updates';

const toneColor = { success: 'teal', fail: 'red', warning: 'yellow', none: 'gray' } as const;

/** /environments/{stageId}/plan?planId= (spec §2 "Deployment plan"): polled every 5 s until it exists; Deploy applies it. */
export default function PlanPage() {
  const { stageId = '' } = useParams();
  const [params] = useSearchParams();
  const planId = params.get('planId');
  const projectId = useCurrentProject()?.id ?? '';
  useDeploymentUpdates(projectId || undefined);
  const navigate = useNavigate();
  const stage = useStage(projectId, stageId);
  const plan = usePlan(projectId, stageId, planId);
  const actions = useStageActions(projectId, stageId);

  useEffect(() => {
    if (!planId) navigate(`/environments/${stageId}`, { replace: true });
  }, [planId, stageId, navigate]);
  useEffect(() => {
    if (plan.isError) {
      toast.apiError(plan.error);
      navigate(`/environments/${stageId}`);
    } else if (plan.data?.status === 'FAILED') {
      toast.error(plan.data.error ?? 'Creating the plan failed');
      navigate(`/environments/${stageId}`);
    }
  }, [plan.isError, plan.error, plan.data, stageId, navigate]);

  const deploy = async () => {
    try {
      const started = await actions.deployPlan.mutateAsync(planId!);
      navigate(`/environments/${stageId}/details?deploymentId=${started.deploymentId}`);
    } catch (e) {
      toast.apiError(e);
    }
  };
  const s = stage.data;
  const p = plan.data;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Deployment plan"
        description={s ? `What deploying ${s.name} would change` : undefined}
        actions={
          <Button leftSection={<IconRocket size={16} />} disabled={p?.status !== 'READY'} loading={actions.deployPlan.isPending} onClick={() => void deploy()}>
            Deploy
          </Button>
        }
      />
      <Card ref={toastClearance} withBorder radius="md" padding="lg" data-testid="plan-facts">
        {/* columns from the card's own width, not the window's: a fact needs 150 px, as on the environment's page */}
        <CardGrid minWidth={150} max={4}>
          <div>
            <Text size="xs" c="dimmed">
              Plan ID
            </Text>
            <Group gap={4} wrap="nowrap">
              <Text size="sm" ff="monospace" truncate="end">
                {planId}
              </Text>
              {planId && <CopyToClipboard value={planId} />}
            </Group>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Cloud Provider
            </Text>
            <Text size="sm">{s ? providerLabel(s.cloudProvider) : '—'}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              IaC Tool
            </Text>
            <Text size="sm">{s ? toolLabel(s.infrastructureAsCodeTool) : '—'}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Last Deployed
            </Text>
            <LastDeployed stage={s} />
          </div>
        </CardGrid>
      </Card>
      {!p || p.status === 'CREATING' ? (
        <Card withBorder radius="md" padding="xl">
          <Group justify="center" gap="sm">
            <Loader size="sm" />
            <Text size="sm" c="dimmed">
              Creating the plan… this may take a few minutes.
            </Text>
          </Group>
        </Card>
      ) : p.status !== 'READY' && p.status !== 'APPLIED' ? (
        <Alert color="red">{p.error ?? `The plan is ${p.status.toLowerCase()}`}</Alert>
      ) : (
        <Card withBorder radius="md" padding="lg">
          <Group justify="space-between" mb="sm">
            <Text fw={650}>Changes</Text>
            {p.summary && (
              <Text size="sm" c="dimmed" data-testid="plan-summary">
                {p.summary.add} to add, {p.summary.change} to change, {p.summary.destroy} to destroy
              </Text>
            )}
          </Group>
          {!p.changes.length ? (
            <Text size="sm" c="dimmed">
              No changes
            </Text>
          ) : (
            <Table striped withTableBorder data-testid="plan-changes">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Action</Table.Th>
                  <Table.Th>Resource</Table.Th>
                  <Table.Th>Component</Table.Th>
                  <Table.Th>Version</Table.Th>
                  <Table.Th>Address</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.changes.map((c) => {
                  const tone = planActionTone(c.action);
                  return (
                    <Table.Tr key={c.address}>
                      <Table.Td>
                        <Badge color={toneColor[tone.tone]} variant="light">
                          {tone.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td fw={600}>{c.resourceName}</Table.Td>
                      <Table.Td>{c.name ?? '—'}</Table.Td>
                      <Table.Td ff="monospace">{c.version?.slice(0, 10) ?? '—'}</Table.Td>
                      <Table.Td ff="monospace" fz="xs" c="dimmed">
                        {c.address}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          )}
          {p.status === 'APPLIED' && (
            <Text size="sm" c="dimmed" mt="sm">
              This plan was applied.
            </Text>
          )}
        </Card>
      )}
      {stage.isError && <Alert color="red">{errorMessage(stage.error)}</Alert>}
    </Stack>
  );
}
