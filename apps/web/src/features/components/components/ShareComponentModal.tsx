import { Button, Divider, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import type { Component } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { useProjects } from '../../projects';
import { useShareComponent } from '../api/share-component';
import { useUnshareComponent } from '../api/unshare-component';
import { useErrorToast } from '../../../ui/use-error-toast';

/**
 * Share (spec §2): the user's other projects are the candidates; Share is disabled until one is
 * chosen. Sharing moves the project to "Shared with" (READ permission); Revoke moves it back.
 */
export function ShareComponentModal({
  opened,
  onClose,
  projectId,
  component,
}: {
  opened: boolean;
  onClose: () => void;
  projectId: string;
  component: Component;
}) {
  const projects = useProjects(opened);
  const share = useShareComponent(projectId, component.id);
  const unshare = useUnshareComponent(projectId, component.id);
  const [grantee, setGrantee] = useState<string | null>(null);
  useErrorToast(opened ? projects.error : null);

  const sharedWith = useMemo(() => component.accessList.filter((a) => a.assigneeType === 'shared'), [component.accessList]);
  const candidates = useMemo(() => {
    const taken = new Set(sharedWith.map((a) => a.assigneeId));
    return (projects.data ?? [])
      .filter((p) => p.id !== projectId && p.id !== component.projectId && !taken.has(p.id))
      .map((p) => ({ value: p.id, label: p.name }));
  }, [projects.data, sharedWith, projectId, component.projectId]);

  const close = () => {
    setGrantee(null);
    onClose();
  };

  const doShare = () => {
    if (!grantee) return;
    const name = candidates.find((c) => c.value === grantee)?.label ?? '';
    share.mutate(grantee, {
      onSuccess: () => {
        toast.success(`Component ${component.name} has been shared with project ${name}`);
        setGrantee(null);
      },
      onError: (e) => toast.apiError(e),
    });
  };

  const revoke = (targetId: string, name: string) =>
    unshare.mutate(targetId, {
      onSuccess: () => toast.success(`Access of project ${name} to component ${component.name} has been revoked`),
      onError: (e) => toast.apiError(e),
    });

  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>Share {component.name}</Text>} centered radius="md" size="lg">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Projects you share this component with can use it in their environments (read access).
        </Text>
        <Group align="flex-end" wrap="nowrap">
          <Select
            label="Project"
            placeholder={projects.isPending ? 'Loading projects…' : 'Select a project'}
            data={candidates}
            value={grantee}
            onChange={setGrantee}
            searchable
            nothingFoundMessage="No other projects"
            maxDropdownHeight={300}
            style={{ flex: 1 }}
            data-testid="share-project"
          />
          <Button leftSection={<IconShare size={16} />} disabled={!grantee} loading={share.isPending} onClick={doShare}>
            Share
          </Button>
        </Group>
        <Divider label="Shared with" labelPosition="left" />
        {sharedWith.length === 0 ? (
          <Text size="sm" c="dimmed" ta="center" py="sm">
            No data available
          </Text>
        ) : (
          <Stack gap="xs" data-testid="shared-with">
            {sharedWith.map((a) => (
              <Group key={a.assigneeId} justify="space-between" wrap="nowrap">
                <Text size="sm">{a.assigneeName}</Text>
                <Button
                  size="compact-sm"
                  variant="light"
                  color="red"
                  loading={unshare.isPending && unshare.variables === a.assigneeId}
                  onClick={() => revoke(a.assigneeId, a.assigneeName)}
                >
                  Revoke
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
