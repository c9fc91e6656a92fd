import { Alert, Badge, Select, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import { matchesSearch, type AdminProjectPlan } from '@gantry/contracts';
import { errorMessage, isApiError } from '../../api/errors';
import { toast } from '../../api/toast';
import { DataTable, type Column } from '../../ui/DataTable';
import { formatDate } from '../../ui/dayjs';
import { PageHeader } from '../../ui/PageHeader';
import { SearchableTableCard } from '../../ui/SearchableTableCard';
import { useAdminProjects } from './api/get-admin-projects';
import { usePlanChoices } from './api/get-plan-choices';
import { useSetProjectPlan } from './api/set-project-plan';

const statusColor: Record<string, string> = { ACTIVE: 'teal', TRIAL: 'blue', EXPIRED: 'red' };

function PlanSelect({ project }: { project: AdminProjectPlan }) {
  const choices = usePlanChoices();
  const setPlan = useSetProjectPlan();
  return (
    <Select
      aria-label={`Plan of ${project.name}`}
      data={choices.data ?? []}
      value={project.plan.id}
      allowDeselect={false}
      disabled={setPlan.isPending}
      w={170}
      size="xs"
      onChange={(planId) =>
        planId &&
        planId !== project.plan.id &&
        setPlan.mutate(
          { projectId: project.id, planId },
          { onSuccess: (row) => toast.success(`${row.name} is now on the ${row.plan.name} plan`), onError: (e) => toast.apiError(e) },
        )
      }
    />
  );
}

const columns: Column<AdminProjectPlan>[] = [
  {
    key: 'name',
    header: 'Project',
    render: (p) => (
      <Stack gap={0}>
        <Text size="sm" fw={600}>
          {p.name}
        </Text>
        <Text size="xs" c="dimmed">
          {p.owners.join(', ') || 'No owner'}
        </Text>
      </Stack>
    ),
  },
  { key: 'created', header: 'Created', render: (p) => <Text size="sm">{formatDate(p.createdAt)}</Text> },
  {
    key: 'status',
    header: 'Status',
    render: (p) => (
      <Badge variant="light" color={statusColor[p.status] ?? 'gray'}>
        {p.status}
      </Badge>
    ),
  },
  { key: 'expires', header: 'Expires', render: (p) => <Text size="sm">{p.expirationDate ? formatDate(p.expirationDate) : 'Never'}</Text> },
  { key: 'plan', header: 'Plan', render: (p) => <PlanSelect project={p} /> },
];

/** The instance admin (the first account) sees every project and sets its plan, as `npx gantry plans set` does. */
export default function AdminPlansPage() {
  const projects = useAdminProjects();
  const [search, setSearch] = useState('');
  const rows = (projects.data ?? []).filter((p) => matchesSearch(search, p.name));

  return (
    <>
      <PageHeader title="Project plans" description="Every project of this instance and its plan. A plan set here has no end date." />
      {isApiError(projects.error) && projects.error.status === 403 ? (
        <Alert color="red" icon={<IconLock size={18} />} title="Instance admin only">
          Only the instance admin (the first account of this instance) can manage project plans.
        </Alert>
      ) : (
        <SearchableTableCard
          empty={false}
          noun={['project', 'projects']}
          total={projects.data?.length}
          search={{ value: search, onChange: setSearch }}
          error={projects.isError ? { message: errorMessage(projects.error) } : null}
        >
          <DataTable data-testid="admin-projects" columns={columns} rows={rows} rowKey={(p) => p.id} loading={projects.isPending} />
        </SearchableTableCard>
      )}
    </>
  );
}
