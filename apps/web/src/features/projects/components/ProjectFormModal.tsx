import { Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect } from 'react';
import { ProjectBody, type Project } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { isApiError } from '../../../api/errors';
import { session } from '../../../api/session';
import { useZodForm } from '../../../ui/use-zod-form';
import { useCreateProject } from '../api/create-project';
import { useUpdateProject } from '../api/update-project';

export interface ProjectFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The project to update; a new project when absent. */
  project?: Project | null;
  /** Called with the new project's id after a create. */
  onCreated?: (id: string, name: string) => void;
}

/** The create/update project dialog: name (≤ 20) and description (required), validated on submit with ProjectBody. */
export function ProjectFormModal({ opened, onClose, project, onCreated }: ProjectFormModalProps) {
  const editing = Boolean(project);
  const form = useZodForm(ProjectBody, { name: '', description: '' });
  const create = useCreateProject();
  const update = useUpdateProject();

  useEffect(() => {
    if (opened) form.reset({ name: project?.name ?? '', description: project?.description ?? '' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, project?.id]);

  const onError = (e: unknown) => {
    if (isApiError(e)) form.setServerErrors(e.fields);
    toast.apiError(e);
  };

  const submit = form.onSubmit((body) => {
    if (project) {
      update.mutate(
        { id: project.id, name: body.name, description: body.description, paymentPlanId: project.paymentPlanId },
        {
          onSuccess: (updated) => {
            const current = session.project();
            if (current?.id === project.id) session.setProject({ ...current, name: updated.name, description: updated.description });
            toast.success('Successfully updated project');
            onClose();
          },
          onError,
        },
      );
    } else {
      create.mutate(
        { name: body.name, description: body.description },
        {
          onSuccess: ({ id }) => {
            // The first project becomes the current one.
            if (!session.project())
              session.setProject({ id, name: body.name, description: body.description, permission: 'owner', paymentPlanId: body.paymentPlanId });
            toast.success('Successfully created project');
            onCreated?.(id, body.name);
            onClose();
          },
          onError,
        },
      );
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>{editing ? 'Update Project' : 'Create New Project'}</Text>} centered radius="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput label="Project name" placeholder="e.g. Storefront" data-autofocus {...form.field('name')} />
          <Textarea label="Description" placeholder="What is this project about?" autosize minRows={3} {...form.field('description')} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {editing ? 'Save' : 'Create'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
