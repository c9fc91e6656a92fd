import { Button, Card, Group, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import { IconBox, IconPlus, IconWorld } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { componentMatches, type Component } from '@gantry/contracts';
import { errorMessage, isPlanLimit } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { NO_DATA } from '../../../ui/DataTable';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { Permitted } from '../../../ui/Permitted';
import { SearchInput } from '../../../ui/SearchInput';
import { CardGrid } from '../../../ui/CardGrid';
import { SkeletonCards } from '../../../ui/SkeletonCards';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useComponents } from '../api/list-components';
import { ComponentCard } from '../components/ComponentCard';
import { DeleteComponentModal } from '../components/DeleteComponentModal';
import { useErrorToast } from '../../../ui/use-error-toast';

type Tab = 'mine' | 'public';
type IacFilter = 'all' | 'cloudformation' | 'terraform';
const asTab = (v: string | null): Tab => (v === 'public' ? 'public' : 'mine');

export const COMPONENTS_INTRO =
  'Components are reusable pieces of infrastructure built by your pipelines with Terraform or Cloudformation. Create one, then add it to your environments.';

/** /components (spec §2): My Components and vendor (public) components, search, IaC filter, cards by name. */
export default function ComponentsPage() {
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const components = useComponents(projectId);
  const [params, setParams] = useSearchParams();
  const tab = asTab(params.get('tab'));
  const [search, setSearch] = useState('');
  const [iac, setIac] = useState<IacFilter>('all');
  const [deleting, setDeleting] = useState<Component | null>(null);
  useErrorToast(components.error);

  const all = components.data;
  const inTab = useMemo(() => (all ?? []).filter((c) => (tab === 'public' ? c.isPublic : !c.isPublic)), [all, tab]);
  const shown = useMemo(() => inTab.filter((c) => (iac === 'all' || c.infrastructureAsCodeTool === iac) && componentMatches(c, search)), [inTab, iac, search]);
  const loading = components.isPending && Boolean(projectId);
  const blocked = isPlanLimit(components.error);
  /** Only components of the current project have a menu; public ones never (spec §2). */
  const canWrite = useProjectPermission().can('change');
  const ownsIt = (c: Component) => canWrite && !c.isPublic && c.projectId === projectId;

  const createButton = (
    <Permitted action="change">
      {(disabled) =>
        disabled ? (
          <Button leftSection={<IconPlus size={16} />} disabled>
            Create Component
          </Button>
        ) : (
          <Button component={Link} to="/components/create" leftSection={<IconPlus size={16} />}>
            Create Component
          </Button>
        )
      }
    </Permitted>
  );

  let body;
  if (blocked) body = <UpgradePrompt message={errorMessage(components.error)} />;
  else if (loading) body = <SkeletonCards count={3} />;
  else if (components.isError && !all)
    body = (
      <Card withBorder radius="md">
        <Text c="red" size="sm">
          {errorMessage(components.error)}
        </Text>
      </Card>
    );
  else if (tab === 'mine' && inTab.length === 0)
    body = (
      <Card withBorder radius="md" padding={0}>
        <EmptyState
          title="Infrastructure Components"
          icon={<IconBox size={28} stroke={1.5} />}
          color="indigo"
          description={COMPONENTS_INTRO}
          action={createButton}
        />
      </Card>
    );
  else if (shown.length === 0)
    body = (
      <Card withBorder radius="md">
        <Text ta="center" c="dimmed" size="sm" py="lg" data-testid="components-empty">
          {NO_DATA}
        </Text>
      </Card>
    );
  else
    body = (
      <CardGrid data-testid="components-grid">
        {shown.map((c) => (
          <ComponentCard key={c.id} component={c} withMenu={ownsIt(c)} onDelete={() => setDeleting(c)} />
        ))}
      </CardGrid>
    );

  return (
    <Stack gap="lg">
      <PageHeader title="Components" description="Reusable infrastructure components for your environments" actions={createButton} />
      <Tabs value={tab} onChange={(v) => setParams(asTab(v) === 'public' ? { tab: 'public' } : {}, { replace: true })}>
        <Tabs.List>
          <Tabs.Tab value="mine" leftSection={<IconBox size={16} />}>
            My Components
          </Tabs.Tab>
          <Tabs.Tab value="public" leftSection={<IconWorld size={16} />}>
            Public Components
          </Tabs.Tab>
        </Tabs.List>
      </Tabs>
      <Group justify="space-between" wrap="wrap" gap="md">
        <SearchInput value={search} onChange={setSearch} placeholder="Search components..." label="Search components" />
        <SegmentedControl
          aria-label="Infrastructure as code tool"
          value={iac}
          onChange={(v) => setIac(v as IacFilter)}
          data={[
            { value: 'all', label: 'All' },
            { value: 'cloudformation', label: 'Cloudformation' },
            { value: 'terraform', label: 'Terraform' },
          ]}
        />
      </Group>
      {body}
      <DeleteComponentModal projectId={projectId} component={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
