import { Badge, Button, Card, CloseButton, Group, Loader, Select, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { IconChartBar, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { AWS_REGIONS, type AdvisorQuery } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { Permitted } from '../../../ui/Permitted';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useErrorToast } from '../../../ui/use-error-toast';
import { NoAwsAccounts, useAwsAccounts } from '../../cloud-accounts';
import { useSchedules } from '../../schedules';
import { useAdvisorResult, useRefreshAdvisor } from '../api/advisor';
import { AdvisorCards } from '../components/AdvisorCards';
import { ageText, queryFromState } from '../lib/advisor-state';

/**
 * /tools/advisor (spec §2.10): the upgrade prompt without the feature, an empty state without AWS accounts, else an
 * account and region picker and Get statistics (disabled until both; 'Fetching data...'), then the three cards with the
 * result's age and a refresh. Opened from an environment, it starts on that environment's account, region and tag.
 */
export default function AdvisorPage() {
  const projectId = useCurrentProject()?.id ?? '';
  const location = useLocation();
  const [initial] = useState(() => queryFromState(location.state));
  const [account, setAccount] = useState(initial?.awsAccountId ?? '');
  const [region, setRegion] = useState(initial?.awsRegion ?? '');
  const [tag, setTag] = useState(initial?.tagKey ? { key: initial.tagKey, value: initial.tagValue! } : null);
  const [query, setQuery] = useState<AdvisorQuery | null>(initial);
  const accounts = useAwsAccounts(projectId);
  const plan = useSchedules(projectId);
  const result = useAdvisorResult(projectId, query);
  const refresh = useRefreshAdvisor(projectId);
  useErrorToast(result.error);

  const blocked = [plan.error, result.error, refresh.error].find(isPlanLimit);
  const fetching = result.isFetching || refresh.isPending;
  const ask = () => setQuery({ awsAccountId: account, awsRegion: region, ...(tag ? { tagKey: tag.key, tagValue: tag.value } : {}) });
  const data = result.data;
  const accountLabel = (id: string) => accounts.data?.find((a) => a.id === id)?.accountName ?? id;

  let body;
  if (blocked) {
    body = <UpgradePrompt message={errorMessage(blocked)} />;
  } else if (accounts.isPending) {
    body = <Skeleton height={96} radius="md" />;
  } else if (accounts.data?.length === 0) {
    body = <NoAwsAccounts description="The Waste Advisor reads the CloudWatch metrics of an AWS account's EC2 instances, load balancers and databases." />;
  } else {
    body = (
      <Stack gap="lg">
        <Card withBorder radius="md" padding="lg">
          <Group align="flex-end" gap="md" wrap="wrap">
            <SimpleGrid cols={{ base: 1, sm: 2 }} style={{ flex: 1, minWidth: 320 }}>
              <Select
                label="AWS Account"
                placeholder="Select an AWS account"
                data={(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.accountName} (${a.id})` }))}
                value={account || null}
                onChange={(v) => setAccount(v ?? '')}
                maxDropdownHeight={300}
              />
              <Select
                label="Region"
                placeholder="Select a region"
                data={[...AWS_REGIONS]}
                searchable
                value={region || null}
                onChange={(v) => setRegion(v ?? '')}
                maxDropdownHeight={300}
              />
            </SimpleGrid>
            {/* no `loading`: it would cover the 'Fetching data...' label the spec shows */}
            <Button
              leftSection={fetching ? <Loader size={16} type="dots" color="gray" /> : <IconChartBar size={16} />}
              onClick={ask}
              disabled={!account || !region || fetching}
            >
              {fetching ? 'Fetching data...' : 'Get statistics'}
            </Button>
          </Group>
          {tag && (
            <Group gap="xs" mt="sm">
              <Text size="xs" c="dimmed">
                Only resources tagged
              </Text>
              <Badge
                variant="light"
                color="indigo"
                tt="none"
                rightSection={<CloseButton size="xs" aria-label="Show all resources" onClick={() => setTag(null)} />}
                data-testid="advisor-tag"
              >
                {tag.key} = {tag.value}
              </Badge>
            </Group>
          )}
        </Card>
        {fetching && !data ? (
          <Stack gap="xs" data-testid="advisor-fetching">
            <Text size="sm" c="dimmed">
              Fetching data... CloudWatch metrics of every instance, load balancer and database can take a moment.
            </Text>
            <SimpleGrid cols={{ base: 1, lg: 3 }} spacing="lg">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} height={220} radius="md" />
              ))}
            </SimpleGrid>
          </Stack>
        ) : data ? (
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" c="dimmed" data-testid="advisor-age" truncate="end" style={{ minWidth: 0 }}>
                {accountLabel(data.awsAccountId)} · {data.awsRegion}
                {data.tagKey ? ` · ${data.tagKey} = ${data.tagValue}` : ''} · fetched {ageText(data.ageSeconds)}
              </Text>
              <Permitted action="change">
                {(disabled) => (
                  <Button
                    variant="subtle"
                    size="xs"
                    style={{ flexShrink: 0 }}
                    leftSection={<IconRefresh size={14} />}
                    loading={refresh.isPending}
                    disabled={disabled}
                    onClick={() => query && refresh.mutate(query, { onError: (e) => toast.apiError(e) })}
                  >
                    Refresh from CloudWatch
                  </Button>
                )}
              </Permitted>
            </Group>
            <AdvisorCards stats={data.stats} />
          </Stack>
        ) : (
          !result.isError && (
            <Card withBorder radius="md" padding={0}>
              <EmptyState
                compact
                title="Pick an account and a region"
                description="Get statistics looks for EC2 instances with low daily use, load balancers without traffic and databases nobody connects to."
              />
            </Card>
          )
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader title="Waste Advisor" description="Idle and underused AWS resources, from their CloudWatch metrics" />
      {body}
    </Stack>
  );
}
