import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  StageBody,
  stageLocked,
  isTemplateName,
  COST_TAG_KEY,
  scheduleToCron,
  cronToSchedule,
  SavingScheduleFields,
  type Stage,
  type Schedule,
  type TemplateName,
} from '@gantry/contracts';
import { errorMessage, isApiError, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast, UPGRADE_PATH } from '../../../api/toast';
import { useForm } from '../../../ui/form';
import { PageHeader } from '../../../ui/PageHeader';
import { stageKeys, scheduleKeys } from '../api/keys';
import { createStage, createStageFromTemplate, updateStage, useStage } from '../api/stages';
import { createSchedule, deleteSchedule, updateSchedule, useSchedules } from '../api/lookups';
import { EnvironmentAccountSection } from '../components/EnvironmentAccountSection';
import { EnvironmentGeneralSection } from '../components/EnvironmentGeneralSection';
import { EnvironmentTemplateSection } from '../components/EnvironmentTemplateSection';
import { SavingScheduleSection } from '../components/SavingScheduleSection';
import { initialEnvironmentValues, stageInput, type EnvironmentFormMode, type SavingScheduleValues } from '../components/environment-form';

/** /environments/create (?template=), /environments/{id}/edit, /environments/{id}/replicate (spec §2). */
export default function EnvironmentFormPage() {
  const { stageId } = useParams();
  const { pathname } = useLocation();
  const mode: EnvironmentFormMode = pathname.endsWith('/edit') ? 'edit' : pathname.endsWith('/replicate') ? 'replicate' : 'create';
  const projectId = useCurrentProject()?.id ?? '';
  const stage = useStage(projectId, mode === 'create' ? undefined : stageId);
  if (mode !== 'create' && !stage.data) {
    return stage.isError ? (
      <Alert color="red">{errorMessage(stage.error)}</Alert>
    ) : (
      <Text c="dimmed" size="sm">
        Loading…
      </Text>
    );
  }
  return <EnvironmentForm key={`${mode}:${stage.data?.id ?? 'new'}`} mode={mode} projectId={projectId} stage={stage.data} />;
}

const scheduleFields = (s: SavingScheduleValues) => ({ name: s.name, ...scheduleToCron(s, new Date().getTimezoneOffset()), timezone: s.timezone });

function EnvironmentForm({ mode, projectId, stage }: { mode: EnvironmentFormMode; projectId: string; stage?: Stage }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  const [urlTemplate] = useState<TemplateName | null>(() =>
    mode === 'create' && isTemplateName(params.get('template')) ? (params.get('template') as TemplateName) : null,
  );
  const form = useForm({ initialValues: initialEnvironmentValues(mode, stage, urlTemplate), schema: StageBody, toInput: stageInput });
  const schedules = useSchedules(projectId);
  const costBlocked = isPlanLimit(schedules.error);
  const existingSchedule: Schedule | undefined =
    stage && mode === 'edit' ? schedules.data?.find((s) => s.resourcesTagKey === COST_TAG_KEY && s.resourcesTagValue === stage.id) : undefined;
  const [busy, setBusy] = useState(false);
  const [planLimit, setPlanLimit] = useState<string | null>(null);
  const v = form.values;
  const locked = mode === 'edit' && stage ? stageLocked(stage.status) : false;
  const { setValues } = form;

  // An existing saving schedule fills the fields on edit.
  useEffect(() => {
    if (!existingSchedule) return;
    const parsed = cronToSchedule(existingSchedule.startExpression, existingSchedule.stopExpression, new Date().getTimezoneOffset());
    setValues((f) => ({
      saving: existingSchedule.state === 'ENABLED',
      schedule: { ...f.schedule, name: existingSchedule.name, timezone: existingSchedule.timezone, ...(parsed ?? {}) },
    }));
  }, [existingSchedule, setValues]);

  async function saveSchedule(id: string, awsAccountId: string, awsRegion: string) {
    const body = { ...scheduleFields(v.schedule), awsAccountId, awsRegion, resourcesTagKey: COST_TAG_KEY, resourcesTagValue: id, state: 'ENABLED' as const };
    if (v.saving) {
      if (existingSchedule) await updateSchedule(projectId, existingSchedule.id, body);
      else await createSchedule(projectId, body);
    } else if (existingSchedule) await deleteSchedule(projectId, existingSchedule.id);
    void qc.invalidateQueries({ queryKey: scheduleKeys.list(projectId) });
  }

  const submit = form.onSubmit(async (data) => {
    const { saving, schedule, template, templateValues } = v;
    if (saving && v.cloudProvider === 'aws') {
      const checked = SavingScheduleFields.safeParse(schedule);
      if (!checked.success) {
        form.setFieldError('schedule', checked.error.issues[0]!.message);
        toast.error(checked.error.issues[0]!.message);
        return;
      }
    }
    setBusy(true);
    let createdId: string | null = null;
    try {
      const body = { ...data, ...(mode === 'replicate' && stage ? { copyFrom: stage.id } : {}) };
      const withSchedule = data.cloudProvider === 'aws' && !costBlocked;
      let id: string;
      if (template) {
        // one call: the server answers "Creating environment from template failed. …" and keeps nothing when a resource fails
        id = (
          await createStageFromTemplate(projectId, {
            ...body,
            template,
            templateValues,
            ...(withSchedule && saving ? { savingSchedule: scheduleFields(schedule) } : {}),
          })
        ).stageId;
        if (withSchedule && saving) void qc.invalidateQueries({ queryKey: scheduleKeys.list(projectId) });
      } else {
        if (mode === 'edit' && stage) {
          await updateStage(projectId, stage.id, body);
          id = stage.id;
        } else {
          id = (await createStage(projectId, body)).stageId;
          createdId = id;
        }
        if (withSchedule && (saving || existingSchedule)) await saveSchedule(id, data.awsAccountId!, data.awsRegion!);
      }
      void qc.invalidateQueries({ queryKey: stageKeys.all });
      toast.success(mode === 'edit' ? 'Environment updated.' : 'Environment created.');
      navigate(`/environments/${id}`);
    } catch (e) {
      if (isPlanLimit(e)) setPlanLimit(errorMessage(e));
      else {
        if (isApiError(e)) form.setServerErrors(e.fields);
        toast.apiError(e);
      }
      if (createdId && mode !== 'edit') void qc.invalidateQueries({ queryKey: stageKeys.list(projectId) });
    } finally {
      setBusy(false);
    }
  });

  const title = mode === 'edit' ? 'Edit Environment' : mode === 'replicate' ? 'Replicate Environment' : 'Create Environment';
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={860}>
        <PageHeader
          title={title}
          description={mode === 'replicate' && stage ? `A copy of ${stage.name} with its resources` : 'Where and how the environment is deployed'}
        />
        <Stack gap="lg">
          <EnvironmentGeneralSection form={form} mode={mode} locked={locked} />
          <EnvironmentAccountSection form={form} mode={mode} locked={locked} projectId={projectId} />
          {mode === 'create' && v.cloudProvider === 'aws' && v.infrastructureAsCodeTool === 'cloudformation' && <EnvironmentTemplateSection form={form} />}
          {v.cloudProvider === 'aws' && <SavingScheduleSection form={form} costBlocked={costBlocked} />}
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate(-1)}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {mode === 'edit' ? 'Update Environment' : title}
          </Button>
        </Group>
        <Modal opened={Boolean(planLimit)} onClose={() => setPlanLimit(null)} title={<Text fw={600}>Plan limit reached</Text>} centered>
          <Stack>
            <Text size="sm">{planLimit}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setPlanLimit(null)}>
                Close
              </Button>
              <Button onClick={() => navigate(UPGRADE_PATH)}>Upgrade Plan</Button>
            </Group>
          </Stack>
        </Modal>
      </Stack>
    </form>
  );
}
