import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlus, IconRocket } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { matchesSearch, type Project } from '@gantry/contracts';
import { currentProjectOf, session } from '../../api/session';
import { toast } from '../../api/toast';
import { errorMessage } from '../../api/errors';
import { EmptyState } from '../../ui/EmptyState';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { CardGrid } from '../../ui/CardGrid';
import { SkeletonCards } from '../../ui/SkeletonCards';
import { useProjects } from './api/list-projects';
import { deleteProjectErrorText, useDeleteProject } from './api/delete-project';
import { ProjectCard } from './components/ProjectCard';
import { ProjectFormModal } from './lazy-dialogs';
import { lazyModal } from '../../ui/lazy-modal';

const ConfirmModal = lazyModal(() => import('../../ui/ConfirmModal').then((m) => m.ConfirmModal));

export const deleteProjectQuestion = (name: string) =>
  `Are you sure you want to delete "${name}" project? Do you really want to delete the project? This action cannot be undone.`;

/** /projects (spec §2.5). */
export default function ProjectsPage() {
  const navigate = useNavigate();
  const projects = useProjects();
  const remove = useDeleteProject();
  const [search, setSearch] = useState('');
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<Project | null>(null);
  const [deleting, setDeleting] = useState<Project | null>(null);

  const open = (p: Project) => {
    session.setProject(currentProjectOf(p));
    navigate('/overview', { state: { projectId: p.id } });
  };
  const startCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const target = deleting;
    remove.mutate(target.id, {
      onSuccess: () => {
        if (session.project()?.id === target.id) session.setProject(null);
        toast.success('Successfully deleted project');
        setDeleting(null);
      },
      onError: (e) => {
        toast.error(deleteProjectErrorText(e) ?? errorMessage(e));
        setDeleting(null);
      },
    });
  };

  const all = projects.data ?? [];
  const visible = all.filter((p) => matchesSearch(search, p.name, p.description));

  return (
    <Stack gap={0}>
      <PageHeader
        title="Projects"
        description="Every environment, pipeline and cluster lives in a project."
        actions={
          all.length > 0 && (
            <Button leftSection={<IconPlus size={16} />} onClick={startCreate}>
              Create Project
            </Button>
          )
        }
      />

      {projects.isPending ? (
        <SkeletonCards />
      ) : projects.isError ? (
        <Card withBorder radius="md">
          <EmptyState
            title="Projects could not be loaded"
            description={errorMessage(projects.error)}
            action={
              <Button variant="light" onClick={() => projects.refetch()}>
                Try again
              </Button>
            }
          />
        </Card>
      ) : all.length === 0 ? (
        <Card withBorder radius="lg" padding="xl">
          <Stack align="center" ta="center" gap="md" py={48}>
            <ThemeIcon size={72} radius="xl" variant="light">
              <IconRocket size={36} stroke={1.5} />
            </ThemeIcon>
            <Title order={2}>Start Building!</Title>
            <Text c="dimmed" maw={460}>
              Create your first project to connect your cloud, build environments from components and ship with pipelines.
            </Text>
            <Button size="md" leftSection={<IconPlus size={18} />} onClick={startCreate}>
              Create Project
            </Button>
          </Stack>
        </Card>
      ) : (
        <>
          <Group justify="space-between" mb="md">
            <SearchInput value={search} onChange={setSearch} placeholder="Search projects..." label="Search projects" />
            <Text size="sm" c="dimmed" data-testid="projects-total">
              Total Projects: {all.length}
            </Text>
          </Group>
          {visible.length === 0 ? (
            <Card withBorder radius="md">
              <EmptyState compact title="No projects found with that name or description." />
            </Card>
          ) : (
            <CardGrid data-testid="projects-grid">
              {visible.map((p) => (
                <ProjectCard
                  key={p.id}
                  project={p}
                  onOpen={() => open(p)}
                  onEdit={() => {
                    setEditing(p);
                    setFormOpen(true);
                  }}
                  onRemove={() => setDeleting(p)}
                />
              ))}
            </CardGrid>
          )}
        </>
      )}

      <ProjectFormModal opened={formOpen} onClose={() => setFormOpen(false)} project={editing} />
      <ConfirmModal
        opened={Boolean(deleting)}
        title="Delete project"
        message={deleting ? deleteProjectQuestion(deleting.name) : ''}
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
