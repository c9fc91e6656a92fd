import { ActionIcon, Anchor, Badge, Button, Group, Stack, Tabs, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconCube, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { matchesSearch, type Microservice, type ServiceKind } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { DataTable, type Column } from '../../../ui/DataTable';
import { PageHeader } from '../../../ui/PageHeader';
import { SearchableTableCard } from '../../../ui/SearchableTableCard';
import { useErrorToast } from '../../../ui/use-error-toast';
import { PUBLIC_TAB, servicesRoute, serviceRoute } from '../api/keys';
import { useMicroservices } from '../api/list-microservices';
import { DeleteServiceModal } from '../components/DeleteServiceModal';
import { ServiceImage } from '../components/ServiceImage';

const TABS: { kind: ServiceKind; label: string }[] = [
  { kind: 'PRIVATE', label: 'My Services' },
  { kind: 'PUBLIC', label: 'Public Services' },
];

/**
 * /kubernetes/services (spec delivery §2): My Services (PRIVATE) and Public Services (PUBLIC), a case-insensitive
 * name search, Edit and Delete on private services only (public ones are read-only), Create Service. Clicking an item
 * (anywhere on its row, not only its name) opens /kubernetes/services/{microserviceName}.
 */
export default function ServicesPage() {
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const canWrite = useProjectPermission().can('change');
  const navigate = useNavigate();
  const services = useMicroservices(projectId);
  // the tab is in the address (?tab=public), so the way back from a public service (its Back link, the browser's) finds it again
  const [params, setParams] = useSearchParams();
  const kind: ServiceKind = params.get('tab') === PUBLIC_TAB ? 'PUBLIC' : 'PRIVATE';
  const setKind = (next: ServiceKind) => setParams(next === 'PUBLIC' ? { tab: PUBLIC_TAB } : {}, { replace: true });
  const [search, setSearch] = useState('');
  const [removing, setRemoving] = useState<Microservice | null>(null);
  useErrorToast(services.error);

  const ofKind = (services.data ?? []).filter((s) => s.kind === kind);
  const rows = ofKind.filter((s) => matchesSearch(search, s.name));
  const createButton = canWrite && (
    <Button leftSection={<IconPlus size={16} />} component={Link} to={`${servicesRoute}/create`}>
      Create Service
    </Button>
  );

  const columns: Column<Microservice>[] = [
    {
      key: 'name',
      header: 'Service',
      render: (s) => (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon size={34} radius="md" variant="light" color={s.isPublic ? 'grape' : 'indigo'}>
            <IconCube size={19} />
          </ThemeIcon>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Anchor
              component={Link}
              to={serviceRoute(s.name)}
              size="sm"
              fw={600}
              c="var(--mantine-color-text)"
              data-testid="service-name"
              onClick={(e) => e.stopPropagation()} // the link opens it: the row's click would open it a second time
            >
              {s.name}
            </Anchor>
            <Text size="xs" c="dimmed" truncate="end" maw={420} title={s.description}>
              {s.description}
            </Text>
          </Stack>
        </Group>
      ),
    },
    { key: 'image', header: 'Image', render: (s) => <ServiceImage registry={s.registry} imageRepository={s.imageRepository} /> },
    {
      key: 'inputs',
      header: 'Inputs',
      width: 90,
      render: (s) => (
        <Badge variant="light" color="gray" radius="sm">
          {s.schema.inputs.length}
        </Badge>
      ),
    },
  ];
  if (canWrite && kind === 'PRIVATE') {
    columns.push({
      key: 'actions',
      header: 'Actions',
      align: 'right',
      width: 110,
      render: (s) => (
        <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(e) => e.stopPropagation()}>
          <Tooltip label="Edit" withArrow>
            <ActionIcon variant="subtle" color="gray" aria-label={`Edit service ${s.name}`} onClick={() => navigate(`${serviceRoute(s.name)}/edit`)}>
              <IconPencil size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete" withArrow>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete service ${s.name}`} onClick={() => setRemoving(s)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    });
  }

  const isEmpty = services.isSuccess && ofKind.length === 0;
  return (
    <Stack gap="lg">
      <PageHeader title="Services" description="Container services of this project, ready to deploy to your Kubernetes clusters" actions={createButton} />
      <Tabs value={kind} onChange={(v) => setKind((v as ServiceKind) ?? 'PRIVATE')}>
        <Tabs.List>
          {TABS.map((t) => (
            <Tabs.Tab
              key={t.kind}
              value={t.kind}
              rightSection={
                services.data ? (
                  <Badge size="xs" variant="light" color="gray">
                    {services.data.filter((s) => s.kind === t.kind).length}
                  </Badge>
                ) : undefined
              }
            >
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <SearchableTableCard
        empty={
          isEmpty && {
            title: kind === 'PRIVATE' ? 'No services yet' : 'No public services',
            icon: <IconCube size={28} stroke={1.5} />,
            color: kind === 'PRIVATE' ? 'indigo' : 'grape', // as a service's own badge
            description:
              kind === 'PRIVATE'
                ? 'A service is a container image from one of your registries (or a public image) that you deploy to your clusters with autoscaling.'
                : 'Public services are shared by this Gantry instance with every project; none are published yet.',
            action: kind === 'PRIVATE' ? createButton || undefined : undefined,
          }
        }
        noun={['service', 'services']}
        search={{ value: search, onChange: setSearch }}
        total={services.data && rows.length}
        error={services.isError && !services.data ? { message: errorMessage(services.error) } : null}
      >
        <DataTable
          columns={columns}
          rows={rows}
          rowKey={(s) => s.id}
          loading={services.isPending && Boolean(projectId)}
          onRowClick={(s) => navigate(serviceRoute(s.name))}
          data-testid="services-table"
        />
      </SearchableTableCard>
      <DeleteServiceModal projectId={projectId} service={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}
