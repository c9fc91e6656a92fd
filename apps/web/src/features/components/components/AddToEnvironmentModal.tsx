import { Anchor, Button, Group, Loader, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { toast } from '../../../api/toast';
import { useAddComponentToStage, useStageList } from '../../environments';

/**
 * Add to Environment (spec §2): lists the project's environments; Add is disabled until one is
 * chosen; with no environments it links to /environments/create. Add places the component at
 * LATEST with its defaults; a component with required inputs opens the environment's resource
 * modal for it instead (`?addComponent=`), since its values must be given.
 */
export function AddToEnvironmentModal({
  opened,
  onClose,
  projectId,
  component,
}: {
  opened: boolean;
  onClose: () => void;
  projectId: string;
  component: { id: string; name: string };
}) {
  const navigate = useNavigate();
  const stages = useStageList(projectId, opened);
  const add = useAddComponentToStage(projectId, component);
  const [stageId, setStageId] = useState<string | null>(null);
  const close = () => {
    setStageId(null);
    onClose();
  };
  const submit = () => {
    if (!stageId) return;
    add.mutate(stageId, {
      onSuccess: (outcome) => {
        close();
        if ('added' in outcome) {
          toast.success('Successfully added component to environment');
          navigate(`/environments/${stageId}`);
        } else {
          navigate(`/environments/${stageId}?addComponent=${component.id}`);
        }
      },
      onError: (e) => toast.apiError(e),
    });
  };
  const environments = (stages.data ?? []).map((s) => ({ value: s.id, label: s.name }));
  return (
    <Modal opened={opened} onClose={close} title={<Text fw={600}>Add to Environment</Text>} centered radius="md">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          Add {component.name} as a resource of one of your environments.
        </Text>
        {stages.isPending ? (
          <Group justify="center" py="sm">
            <Loader size="sm" />
          </Group>
        ) : environments.length === 0 ? (
          <Text size="sm" data-testid="no-environments">
            There are no environments in this project yet.{' '}
            <Anchor component={Link} to="/environments/create" onClick={close}>
              Create Environment
            </Anchor>
          </Text>
        ) : (
          <Select
            label="Environment"
            placeholder="Select an environment"
            data={environments}
            value={stageId}
            onChange={setStageId}
            maxDropdownHeight={300}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Cancel
          </Button>
          <Button disabled={!stageId} loading={add.isPending} onClick={submit}>
            Add
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
