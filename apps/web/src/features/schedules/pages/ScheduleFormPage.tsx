import { Anchor, Button, Card, Group, SegmentedControl, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AWS_REGIONS, type CloudResource, type CloudResources } from '@gantry/contracts';
import { errorMessage, isApiError, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { FormSection } from '../../../ui/FormSection';
import { PageHeader } from '../../../ui/PageHeader';
import { ScheduleTimeFields } from '../../../ui/ScheduleTimeFields';
import { UpgradePrompt } from '../../../ui/UpgradePrompt';
import { useForm } from '../../../ui/form';
import { useErrorToast } from '../../../ui/use-error-toast';
import { NoAwsAccounts, useAwsAccounts } from '../../cloud-accounts';
import { useCloudResources } from '../api/resources';
import { useScheduleDetail, useScheduleMutations, useScheduleRuns } from '../api/schedules';
import { ResourcePicker } from '../components/ResourcePicker';
import { SavingsEstimate } from '../components/SavingsEstimate';
import { ScheduleRuns } from '../components/ScheduleRuns';
import { ScheduleStateBadge } from '../components/ScheduleStateBadge';
import {
  emptyScheduleForm,
  refKey,
  scheduleEstimate,
  scheduleFormFrom,
  scheduleFormSchema,
  toScheduleBody,
  type ScheduleFormValues,
} from '../lib/schedule-form';

const LIST_PATH = '/tools/schedules';

/** The resources the estimate counts: the picked ones, or those carrying the filter's tag. */
function coveredResources(v: ScheduleFormValues, resources: CloudResources | undefined): CloudResource[] {
  if (!resources) return [];
  const all = [...resources.ec2, ...resources.asg, ...resources.rds];
  if (v.selectBy === 'RESOURCES') {
    const picked = new Set(v.resources.map(refKey));
    return all.filter((r) => picked.has(refKey(r)));
  }
  if (!v.resourcesTagKey || !v.resourcesTagValue) return [];
  return all.filter((r) => r.tags.some((t) => t.key === v.resourcesTagKey && t.value === v.resourcesTagValue));
}

function ScheduleForm({ projectId, scheduleId, initialValues }: { projectId: string; scheduleId?: string; initialValues: ScheduleFormValues }) {
  const creating = !scheduleId;
  const navigate = useNavigate();
  const offset = new Date().getTimezoneOffset();
  const form = useForm({ initialValues, schema: scheduleFormSchema(creating), toInput: (v: ScheduleFormValues) => toScheduleBody(v, offset) });
  const v = form.values;
  const accounts = useAwsAccounts(projectId);
  const resources = useCloudResources(projectId, v.awsAccountId, v.awsRegion);
  const { save } = useScheduleMutations(projectId);
  useErrorToast(resources.error);
  const covered = useMemo(() => coveredResources(v, resources.data), [v, resources.data]);
  const estimate = scheduleEstimate(v, covered);
  const rangeError = form.errors.days ?? form.errors.startExpression ?? form.errors.stopExpression;

  const submit = form.onSubmit((body) =>
    save.mutate(
      { id: scheduleId, body },
      {
        onSuccess: (s) => {
          toast.success(creating ? `Created schedule ${s.name}.` : `Updated schedule ${s.name}.`);
          navigate(LIST_PATH);
        },
        onError: (e) => {
          if (isApiError(e) && e.fields) form.setServerErrors(e.fields);
          toast.apiError(e);
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {isPlanLimit(resources.error) && <UpgradePrompt message={errorMessage(resources.error)} />}
        <FormSection title="General" description="What the schedule is called and when the resources are awake">
          <TextInput label="Schedule name" withAsterisk placeholder="Nights and weekends off" {...form.getInputProps('name')} />
          <ScheduleTimeFields
            value={v}
            onChange={(patch) => {
              if (patch.days) form.setFieldValue('days', patch.days);
              if (patch.wakeHour !== undefined) form.setFieldValue('wakeHour', patch.wakeHour);
              if (patch.sleepHour !== undefined) form.setFieldValue('sleepHour', patch.sleepHour);
            }}
            error={rangeError}
          />
        </FormSection>
        <FormSection title="Cloud account" description="Where the resources are">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select
              label="AWS Account"
              placeholder="Select an AWS account"
              withAsterisk
              data={(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.accountName} (${a.id})` }))}
              value={v.awsAccountId || null}
              onChange={(x) => form.setValues({ awsAccountId: x ?? '', resources: [] })}
              error={form.errors.awsAccountId}
              disabled={!creating}
              maxDropdownHeight={300}
            />
            <Select
              label="Region"
              placeholder="Select a region"
              withAsterisk
              searchable
              data={[...AWS_REGIONS]}
              value={v.awsRegion || null}
              onChange={(x) => form.setValues({ awsRegion: x ?? '', resources: [] })}
              error={form.errors.awsRegion}
              disabled={!creating}
              maxDropdownHeight={300}
            />
          </SimpleGrid>
        </FormSection>
        <FormSection title="Resources" description="Pick EC2 instances, Auto Scaling groups and RDS databases, or every resource carrying a tag">
          <SegmentedControl
            value={v.selectBy}
            onChange={(x) => form.setFieldValue('selectBy', x as ScheduleFormValues['selectBy'])}
            data={[
              { value: 'RESOURCES', label: 'Select resources' },
              { value: 'TAG', label: 'Filter by tag' },
            ]}
            w="fit-content"
          />
          {v.selectBy === 'RESOURCES' ? (
            <ResourcePicker
              resources={resources.data}
              loading={resources.isFetching && !resources.data}
              selected={v.resources}
              onChange={(next) => form.setFieldValue('resources', next)}
              error={form.errors.resources}
            />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Tag key" withAsterisk placeholder="team" {...form.getInputProps('resourcesTagKey')} />
              <TextInput label="Tag value" withAsterisk placeholder="web" {...form.getInputProps('resourcesTagValue')} />
            </SimpleGrid>
          )}
        </FormSection>
        <SavingsEstimate estimate={estimate} count={covered.length} />
        <Group justify="flex-end">
          <Button variant="default" component={Link} to={LIST_PATH}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {creating ? 'Create Schedule' : 'Update Schedule'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /tools/schedules/create and /tools/schedules/{scheduleId}/edit (spec §2.10, §5, §9), with the schedule's runs when editing. */
export default function ScheduleFormPage() {
  const { scheduleId } = useParams();
  const projectId = useCurrentProject()?.id ?? '';
  const detail = useScheduleDetail(projectId, scheduleId);
  const runs = useScheduleRuns(projectId, scheduleId);
  const accounts = useAwsAccounts(projectId);
  const title = scheduleId ? 'Edit Schedule' : 'Create Schedule';
  const initial = useMemo(
    () => (scheduleId ? (detail.data ? scheduleFormFrom(detail.data, new Date().getTimezoneOffset()) : null) : emptyScheduleForm()),
    [scheduleId, detail.data],
  );

  const backLink = (
    <Anchor component={Link} to={LIST_PATH} size="sm" c="dimmed">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        Back to saving schedules
      </Group>
    </Anchor>
  );

  let body;
  if (scheduleId && detail.isError) {
    body = isPlanLimit(detail.error) ? (
      <UpgradePrompt message={errorMessage(detail.error)} />
    ) : (
      <Card withBorder radius="md" padding={0}>
        <EmptyState title="This schedule could not be loaded" description={errorMessage(detail.error)} />
      </Card>
    );
  } else if (!scheduleId && accounts.isSuccess && accounts.data.length === 0) {
    body = <NoAwsAccounts description="A saving schedule stops and starts resources of a connected AWS account." />;
  } else if (!initial) {
    body = <Skeleton height={420} radius="md" />;
  } else {
    body = <ScheduleForm key={scheduleId ?? 'new'} projectId={projectId} scheduleId={scheduleId} initialValues={initial} />;
  }

  return (
    <Stack gap="lg" maw={1080}>
      {backLink}
      <PageHeader
        title={title}
        description={
          detail.data ? (
            <Group gap="xs" component="span">
              <Text span size="sm">
                {detail.data.schedule.name}
              </Text>
              <ScheduleStateBadge state={detail.data.schedule.state} />
            </Group>
          ) : (
            'Stop resources when nobody uses them and start them again before work'
          )
        }
      />
      {body}
      {scheduleId && detail.data && <ScheduleRuns runs={runs.data} loading={runs.isPending} />}
    </Stack>
  );
}
