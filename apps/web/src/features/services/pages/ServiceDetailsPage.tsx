import { Anchor, Badge, Button, Card, Grid, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { PUBLIC_DOCKER_IMAGE } from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { useCurrentProject } from '../../../api/session';
import { EmptyState } from '../../../ui/EmptyState';
import { PageHeader } from '../../../ui/PageHeader';
import { Readme } from '../../../ui/Readme';
import { useErrorToast } from '../../../ui/use-error-toast';
import { publicServicesRoute, serviceRoute, servicesRoute } from '../api/keys';
import { useMicroservice } from '../api/get-microservice';
import { AddToCluster } from '../components/AddToCluster';
import { DeleteServiceModal } from '../components/DeleteServiceModal';
import { ParameterTables } from '../components/ParameterTables';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="xs" fw={600} tt="uppercase" c="dimmed">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/**
 * /kubernetes/services/:microserviceName (spec §2): Docker Registry and Image repository, the readme, the input and
 * output parameter tables; Edit, Remove (private services only, then the list) and Add to Cluster.
 */
export default function ServiceDetailsPage() {
  const { microserviceName = '' } = useParams();
  const project = useCurrentProject();
  const projectId = project?.id ?? '';
  const canWrite = useProjectPermission().can('change');
  const navigate = useNavigate();
  const service = useMicroservice(projectId, microserviceName);
  const [removing, setRemoving] = useState(false);
  useErrorToast(service.error);
  const s = service.data;

  const backLink = (
    <Anchor component={Link} to={s?.isPublic ? publicServicesRoute : servicesRoute} size="sm" c="dimmed">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        Back to services
      </Group>
    </Anchor>
  );
  if (service.isError) {
    return (
      <Stack gap="lg">
        {backLink}
        <PageHeader title={microserviceName} />
        <Card withBorder radius="md" padding={0}>
          <EmptyState title="This service could not be loaded" description={errorMessage(service.error)} />
        </Card>
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      {backLink}
      <PageHeader
        title={microserviceName}
        description={s ? s.description : <Skeleton height={14} width={280} component="span" display="inline-block" />}
        actions={
          s &&
          canWrite &&
          !s.isPublic && (
            <>
              <Button variant="default" leftSection={<IconPencil size={16} />} component={Link} to={`${serviceRoute(s.name)}/edit`}>
                Edit
              </Button>
              <Button variant="light" color="red" leftSection={<IconTrash size={16} />} onClick={() => setRemoving(true)}>
                Remove
              </Button>
            </>
          )
        }
      />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="lg">
            <Card withBorder radius="md" padding="lg" data-testid="service-summary">
              <Group gap="xl" align="flex-start" wrap="wrap">
                <Field label="Docker Registry">
                  {s ? (
                    <Text size="sm" data-testid="service-registry">
                      {s.registry ?? PUBLIC_DOCKER_IMAGE}
                    </Text>
                  ) : (
                    <Skeleton height={16} width={120} />
                  )}
                </Field>
                <Field label="Image repository">
                  {s ? (
                    <Text size="sm" ff="monospace" data-testid="service-repository">
                      {s.imageRepository}
                    </Text>
                  ) : (
                    <Skeleton height={16} width={180} />
                  )}
                </Field>
                <Field label="Kind">
                  {s ? (
                    <Badge variant="light" color={s.isPublic ? 'grape' : 'indigo'} radius="sm">
                      {s.kind}
                    </Badge>
                  ) : (
                    <Skeleton height={16} width={60} />
                  )}
                </Field>
              </Group>
            </Card>
            <Card withBorder radius="md" padding="lg">
              <Text fw={600} mb="sm">
                Readme
              </Text>
              {s ? (
                s.readme.trim() ? (
                  <Readme text={s.readme} testId="service-readme" />
                ) : (
                  <Text size="sm" c="dimmed">
                    No readme for this service.
                  </Text>
                )
              ) : (
                <Skeleton height={60} />
              )}
            </Card>
            {s ? <ParameterTables schema={s.schema} /> : <Skeleton height={160} radius="md" />}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          {s ? <AddToCluster projectId={projectId} service={s} canDeploy={canWrite} /> : <Skeleton height={160} radius="md" />}
        </Grid.Col>
      </Grid>
      <DeleteServiceModal
        projectId={projectId}
        service={removing && s ? s : null}
        onClose={() => setRemoving(false)}
        onDeleted={() => navigate(servicesRoute)}
      />
    </Stack>
  );
}
