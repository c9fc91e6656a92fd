import { Anchor, Badge, Button, Drawer, Group, ScrollArea, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconCube, IconRocket } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { matchesSearch, serviceMessages, type Microservice, type ServiceKind } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { UPGRADE_PATH } from '../../../api/toast';
import { SearchInput } from '../../../ui/SearchInput';
import { useDeployedMicroservices, useMicroservices } from '../../services';

/**
 * The dashboard's side menu (spec §2): private and public tabs, a search, each service with where it runs in this
 * cluster ('No deployment information available' when nowhere; 'Upgrade plan' on a 402) and a Deploy button;
 * 'No services available.' when a tab has none.
 */
export function DeploySideMenu({
  projectId,
  clusterId,
  opened,
  onClose,
  onDeploy,
}: {
  projectId: string;
  clusterId: string;
  opened: boolean;
  onClose: () => void;
  onDeploy: (service: Microservice) => void;
}) {
  const [kind, setKind] = useState<ServiceKind>('PRIVATE');
  const [search, setSearch] = useState('');
  const services = useMicroservices(opened ? projectId : undefined);
  const deployed = useDeployedMicroservices(projectId, clusterId, opened);
  const shown = (services.data ?? []).filter((s) => s.kind === kind && matchesSearch(search, s.name));

  const deployment = (s: Microservice) => {
    if (isPlanLimit(deployed.error))
      return (
        <Anchor component={Link} to={UPGRADE_PATH} size="xs" c="violet" fw={600}>
          Upgrade plan
        </Anchor>
      );
    const where = (deployed.data ?? []).filter((d) => d.name === s.name);
    if (!where.length)
      return (
        <Text size="xs" c="dimmed">
          {serviceMessages.noDeploymentInfo}
        </Text>
      );
    return (
      <Group gap={4}>
        {where.map((d) => (
          <Badge key={d.namespace} size="xs" variant="light" radius="sm" tt="none" ff="monospace">
            {d.namespace}: {d.version}
          </Badge>
        ))}
      </Group>
    );
  };

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={420} title={<Text fw={650}>Deploy a service</Text>} data-testid="deploy-side-menu">
      <Stack gap="sm">
        <Tabs value={kind} onChange={(v) => setKind((v as ServiceKind) ?? 'PRIVATE')}>
          <Tabs.List grow>
            <Tabs.Tab value="PRIVATE">Private</Tabs.Tab>
            <Tabs.Tab value="PUBLIC">Public</Tabs.Tab>
          </Tabs.List>
        </Tabs>
        <SearchInput value={search} onChange={setSearch} placeholder="Search services..." label="Search services" w="100%" />
        <ScrollArea.Autosize mah="calc(100vh - 220px)">
          {services.isPending ? (
            <Stack gap="xs">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} height={56} radius="sm" />
              ))}
            </Stack>
          ) : services.isError ? (
            <Text size="sm" c="red">
              {errorMessage(services.error)}
            </Text>
          ) : shown.length === 0 ? (
            <Text size="sm" c="dimmed" ta="center" py="lg">
              {serviceMessages.noServices}
            </Text>
          ) : (
            <Stack gap={0}>
              {shown.map((s) => (
                <Group key={s.id} justify="space-between" wrap="nowrap" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                    <IconCube size={18} color="var(--mantine-color-indigo-6)" />
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} truncate="end">
                        {s.name}
                      </Text>
                      {deployment(s)}
                    </Stack>
                  </Group>
                  <Button size="xs" variant="light" leftSection={<IconRocket size={14} />} onClick={() => onDeploy(s)} aria-label={`Deploy ${s.name}`}>
                    Deploy
                  </Button>
                </Group>
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
      </Stack>
    </Drawer>
  );
}
