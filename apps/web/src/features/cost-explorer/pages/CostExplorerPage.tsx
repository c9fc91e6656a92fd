import { Alert, Button, Card, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowDownRight, IconArrowUpRight, IconCloudDollar, IconRefresh } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { INSUFFICIENT_HISTORY, type CostData } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { CardGrid, FIGURE_MIN_WIDTH } from '../../../ui/CardGrid';
import { EmptyState } from '../../../ui/EmptyState';
import { Permitted } from '../../../ui/Permitted';
import { PageHeader } from '../../../ui/PageHeader';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useErrorToast } from '../../../ui/use-error-toast';
import { ageText } from '../../advisor';
import { NoAwsAccounts, useAwsAccounts } from '../../cloud-accounts';
import { useStageList } from '../../environments';
import { useCostDashboard, useRefreshCost, useReports } from '../api/cost';
import { ChartCard, MonthlyBars, RankedBars, ServiceRing } from '../components/CostCharts';
import { ReportsCard, reportEditPath } from '../components/ReportsCard';
import { dollars, monthChange, topAccounts } from '../lib/cost';

function Stat({ label, value, hint, testId }: { label: string; value: ReactNode; hint?: ReactNode; testId: string }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={700} mt={4} data-testid={testId}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed" mt={2} component="div">
          {hint}
        </Text>
      )}
    </Card>
  );
}

const estimate = (n: number | null) =>
  n === null ? (
    <Text span fz={16} fw={600} c="dimmed" style={{ lineHeight: 1.3, display: 'block' }}>
      {INSUFFICIENT_HISTORY}
    </Text>
  ) : (
    dollars(n)
  );

function Dashboard({ data, projectId }: { data: CostData; projectId: string }) {
  const accounts = useAwsAccounts(projectId);
  const stages = useStageList(projectId);
  const change = monthChange(data);
  const stageName = (id: string) => (id ? (stages.data?.find((s) => s.id === id)?.name ?? id) : 'Untagged');
  const accountName = (a: CostData['byAccount'][number]) => a.accountName ?? accounts.data?.find((x) => x.id === a.awsAccountId)?.accountName ?? a.awsAccountId;
  return (
    <Stack gap="lg">
      {data.failures.length > 0 && (
        <Alert color="red" variant="light" title="Some accounts could not be read">
          {data.failures.map((f) => (
            <Text key={f.awsAccountId} size="sm">
              {f.awsAccountId}: {f.message}
            </Text>
          ))}
        </Alert>
      )}
      <CardGrid minWidth={FIGURE_MIN_WIDTH} max={4}>
        <Stat label="Last month" value={dollars(data.costForTheLastMonth)} testId="cost-last-month" />
        <Stat
          label="Current month"
          value={dollars(data.costForTheCurrentMonth)}
          testId="cost-current-month"
          hint={
            change !== null && (
              <Group gap={4} wrap="nowrap" align="flex-start">
                {change > 0 ? (
                  <IconArrowUpRight size={14} color="var(--mantine-color-red-6)" style={{ flexShrink: 0 }} />
                ) : (
                  <IconArrowDownRight size={14} color="var(--mantine-color-teal-6)" style={{ flexShrink: 0 }} />
                )}
                <span>
                  {Math.abs(change)}% {change > 0 ? 'more' : 'less'} than last month so far
                </span>
              </Group>
            )
          }
        />
        <Stat label="Estimate for the month" value={estimate(data.estimates.currentMonth)} testId="cost-estimate-month" hint="AWS forecast" />
        <Stat label="Estimate for next year" value={estimate(data.estimates.nextYear)} testId="cost-estimate-year" hint="AWS forecast, 12 months" />
      </CardGrid>
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <ChartCard title="Yearly cost by month" subtitle="The last 12 months, this month included" testId="cost-yearly">
            <MonthlyBars months={data.yearlyByMonth} />
          </ChartCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <ChartCard title="By service" subtitle="This month" testId="cost-by-service">
            <ServiceRing ec2={data.byService.ec2} rds={data.byService.rds} all={data.byService.allServices} />
          </ChartCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <ChartCard title="Top AWS accounts" subtitle="This month, the 3 most expensive" testId="cost-by-account">
            <RankedBars rows={topAccounts(data).map((a) => ({ key: a.awsAccountId, label: accountName(a), amount: a.amount }))} />
          </ChartCard>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <ChartCard title="By environment" subtitle="This month, by the gantry:environment allocation tag" testId="cost-by-environment">
            <RankedBars rows={data.byEnvironment.map((e) => ({ key: e.tagValue || '-', label: stageName(e.tagValue), amount: e.amount }))} />
          </ChartCard>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/**
 * /tools/cost-explorer (spec §2.10): last and current month, by account (top 3), by service, by environment, yearly by
 * month, the forecasts ('Insufficient Historical Data' when AWS has too little history), in whole dollars; the cached
 * figures with their age and a refresh (only a refresh calls Cost Explorer); the reports below.
 */
export default function CostExplorerPage() {
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const canWrite = useProjectPermission().can('change');
  const dashboard = useCostDashboard(projectId);
  const refresh = useRefreshCost(projectId);
  const reports = useReports(projectId);
  const awsAccounts = useAwsAccounts(projectId);
  const noAccounts = awsAccounts.data?.length === 0;
  useErrorToast(dashboard.error);
  const blocked = [dashboard.error, refresh.error, reports.error].find(isPlanLimit);
  const d = dashboard.data;
  const doRefresh = () => refresh.mutate(undefined, { onError: (e) => !isPlanLimit(e) && toast.apiError(e) });
  const firstReport = reports.data?.[0];

  const actions = !blocked && (
    <>
      {d?.fetchedAt && (
        <Text size="xs" c="dimmed" data-testid="cost-age">
          Updated {ageText(d.ageSeconds ?? 0)}
        </Text>
      )}
      <Permitted action="change">
        {(disabled) => (
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={doRefresh} loading={refresh.isPending} disabled={disabled || noAccounts}>
            Refresh
          </Button>
        )}
      </Permitted>
      {canWrite && (
        <Button component={Link} to={firstReport ? reportEditPath(firstReport.id) : '/tools/cost-explorer/reports/create'}>
          {firstReport ? 'Update Report' : 'Create Report'}
        </Button>
      )}
    </>
  );

  let body;
  if (blocked) body = <UpgradePrompt message={errorMessage(blocked)} />;
  else if (dashboard.isPending) body = <Skeleton height={320} radius="md" />;
  else if (dashboard.isError) body = <Alert color="red">{errorMessage(dashboard.error)}</Alert>;
  else if (noAccounts && !d?.data)
    body = (
      <NoAwsAccounts description="The Cost Explorer reads the costs of the project's AWS accounts. Connect one in Settings to see where the money goes." />
    );
  else if (!d?.data)
    body = (
      <Card withBorder radius="md" padding={0}>
        <EmptyState
          title="No cost data yet"
          icon={<IconCloudDollar size={28} stroke={1.5} />}
          color="indigo"
          description="Gantry reads your AWS accounts' costs and forecasts from Cost Explorer. Each read is billed by AWS, so figures are kept until you refresh them."
          action={
            <Permitted action="change">
              {(disabled) => (
                <Button leftSection={<IconRefresh size={16} />} onClick={doRefresh} loading={refresh.isPending} disabled={disabled}>
                  Fetch cost data
                </Button>
              )}
            </Permitted>
          }
        />
      </Card>
    );
  else body = <Dashboard data={d.data} projectId={projectId} />;

  return (
    <Stack gap="lg">
      <PageHeader title="Cost Explorer" description="What your AWS accounts cost, where, and where they are heading" actions={actions} />
      {body}
      {!blocked && <ReportsCard projectId={projectId} canWrite={canWrite} />}
    </Stack>
  );
}
