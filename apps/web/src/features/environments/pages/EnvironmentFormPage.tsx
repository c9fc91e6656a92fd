import { Alert, Button, Checkbox, Chip, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import {
  AWS_REGIONS, GCP_REGIONS, gcpZones, StageBody, stageLocked, replicaDefaults, INFRA_CLOUD_PROVIDERS, ENVIRONMENT_TEMPLATES, isTemplateName,
  DEFAULT_SAVING_SCHEDULE, SCHEDULE_HOURS, WEEKDAYS, COST_TAG_KEY, scheduleToCron, cronToSchedule, SavingScheduleFields,
  type Stage, type Weekday, type TemplateName, type Schedule,
} from '@gantry/contracts';
import { errorMessage, isApiError, isPlanLimit } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { stageKeys, scheduleKeys } from '../api/keys';
import { toast, UPGRADE_PATH } from '../../../api/toast';
import { FormSection } from '../../../ui/FormSection';
import { PageHeader } from '../../../ui/PageHeader';
import { useZodForm } from '../../../ui/use-zod-form';
import { createStage, createStageFromTemplate, updateStage, useStage } from '../api/stages';
import { createSchedule, deleteSchedule, updateSchedule, useCloudAccounts, useSchedules } from '../api/lookups';
import { providerLabel } from '../lib/labels';

type Mode = 'create' | 'edit' | 'replicate';
const WEEKDAY_LABEL: Record<Weekday, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The form's starting values: empty, the environment's own (edit), or its replica defaults. */
function initialValues(mode: Mode, stage: Stage | undefined): Record<string, string> {
  const base = { name: '', description: '', cloudProvider: 'aws', infrastructureAsCodeTool: 'terraform', awsAccountId: '', awsRegion: '', tenantId: '', subscriptionId: '', gcpProjectId: '', gcpRegion: '', gcpZone: '' };
  if (!stage) return base;
  const own = {
    ...base, name: stage.name, description: stage.description, cloudProvider: stage.cloudProvider, infrastructureAsCodeTool: stage.infrastructureAsCodeTool,
    awsAccountId: stage.awsAccountId ?? '', awsRegion: stage.awsRegion ?? '', tenantId: stage.tenantId ?? '', subscriptionId: stage.subscriptionId ?? '',
    gcpProjectId: stage.gcpProjectId ?? '', gcpRegion: stage.gcpRegion ?? '', gcpZone: stage.gcpZone ?? '',
  };
  return mode === 'replicate' ? { ...own, ...replicaDefaults(stage) } : own;
}

/** /environments/create (?template=), /environments/{id}/edit, /environments/{id}/replicate (spec §2). */
export default function EnvironmentFormPage() {
  const { stageId } = useParams();
  const { pathname } = useLocation();
  const mode: Mode = pathname.endsWith('/edit') ? 'edit' : pathname.endsWith('/replicate') ? 'replicate' : 'create';
  const projectId = useCurrentProject()?.id ?? '';
  const stage = useStage(projectId, mode === 'create' ? undefined : stageId);
  if (mode !== 'create' && !stage.data) {
    return stage.isError ? <Alert color="red">{errorMessage(stage.error)}</Alert> : <Text c="dimmed" size="sm">Loading…</Text>;
  }
  return <EnvironmentForm key={`${mode}:${stage.data?.id ?? 'new'}`} mode={mode} projectId={projectId} stage={stage.data} />;
}

function EnvironmentForm({ mode, projectId, stage }: { mode: Mode; projectId: string; stage?: Stage }) {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const form = useZodForm(StageBody, initialValues(mode, stage));
  const accounts = useCloudAccounts(projectId);
  const schedules = useSchedules(projectId);
  const costBlocked = isPlanLimit(schedules.error);
  const existingSchedule: Schedule | undefined = stage && mode === 'edit' ? schedules.data?.find((s) => s.resourcesTagKey === COST_TAG_KEY && s.resourcesTagValue === stage.id) : undefined;
  const [template, setTemplate] = useState<TemplateName | null>(mode === 'create' && isTemplateName(params.get('template')) ? (params.get('template') as TemplateName) : null);
  const [templateValues, setTemplateValues] = useState<Record<string, string | number>>({});
  const [saving, setSaving] = useState(false);
  const [schedule, setSchedule] = useState({ name: '', days: DEFAULT_SAVING_SCHEDULE.days, wakeHour: DEFAULT_SAVING_SCHEDULE.wakeHour, sleepHour: DEFAULT_SAVING_SCHEDULE.sleepHour, timezone: browserZone() });
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [planLimit, setPlanLimit] = useState<string | null>(null);
  const v = form.values;
  const locked = mode === 'edit' && stage ? stageLocked(stage.status) : false;
  const providerToolLocked = locked || mode === 'replicate';

  // An existing saving schedule fills the fields on edit.
  useEffect(() => {
    if (!existingSchedule) return;
    const parsed = cronToSchedule(existingSchedule.startExpression, existingSchedule.stopExpression, new Date().getTimezoneOffset());
    setSaving(existingSchedule.state === 'ENABLED');
    setSchedule((s) => ({ ...s, name: existingSchedule.name, timezone: existingSchedule.timezone, ...(parsed ?? {}) }));
  }, [existingSchedule]);

  // Template defaults (spec §2: 1 replica, CPU 256, memory 512, sqlite).
  useEffect(() => {
    if (!template) return;
    setTemplateValues(Object.fromEntries(ENVIRONMENT_TEMPLATES[template].inputs.filter((i) => i.default !== undefined).map((i) => [i.key, i.default!])));
    form.setValue('cloudProvider', 'aws');
    form.setValue('infrastructureAsCodeTool', 'cloudformation');
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [template]);

  const setProvider = (p: string) => {
    form.setValue('cloudProvider', p);
    if (p !== 'aws') {
      // non-aws: Terraform only, no template, no saving schedule (spec §2)
      form.setValue('infrastructureAsCodeTool', 'terraform');
      setTemplate(null);
      setSaving(false);
    }
  };
  const setTool = (t: string) => {
    form.setValue('infrastructureAsCodeTool', t);
    if (t !== 'cloudformation') setTemplate(null);
  };
  const setGcpRegion = (r: string | null) => {
    form.setValue('gcpRegion', r ?? '');
    form.setValue('gcpZone', '');
  };

  const zones = useMemo(() => (v.gcpRegion ? gcpZones(v.gcpRegion) : []), [v.gcpRegion]);
  const awsOptions = (accounts.data?.aws ?? []).map((a) => ({ value: a.id, label: `${a.accountName} (${a.id})` }));
  const azureOptions = (accounts.data?.azure ?? []).map((a) => ({ value: `${a.tenantId}|${a.subscriptionId}`, label: `${a.subscriptionName} (${a.subscriptionId})` }));
  const gcpOptions = (accounts.data?.gcp ?? []).map((a) => ({ value: a.gcpProjectId, label: `${a.projectName} (${a.gcpProjectId})` }));

  const scheduleFields = () => ({ name: schedule.name, ...scheduleToCron(schedule, new Date().getTimezoneOffset()), timezone: schedule.timezone });

  async function saveSchedule(id: string, awsAccountId: string, awsRegion: string) {
    const body = { ...scheduleFields(), awsAccountId, awsRegion, resourcesTagKey: COST_TAG_KEY, resourcesTagValue: id, state: 'ENABLED' as const };
    if (saving) {
      if (existingSchedule) await updateSchedule(projectId, existingSchedule.id, body);
      else await createSchedule(projectId, body);
    } else if (existingSchedule) await deleteSchedule(projectId, existingSchedule.id);
    void qc.invalidateQueries({ queryKey: scheduleKeys.list(projectId) });
  }

  const submit = form.onSubmit(async (data) => {
    if (saving && v.cloudProvider === 'aws') {
      const checked = SavingScheduleFields.safeParse(schedule);
      if (!checked.success) {
        setScheduleError(checked.error.issues[0]!.message);
        toast.error(checked.error.issues[0]!.message);
        return;
      }
    }
    setScheduleError(null);
    setBusy(true);
    let createdId: string | null = null;
    try {
      const body = { ...data, ...(mode === 'replicate' && stage ? { copyFrom: stage.id } : {}) };
      const withSchedule = data.cloudProvider === 'aws' && !costBlocked;
      let id: string;
      if (template) {
        // one call: the server answers "Creating environment from template failed. …" and keeps nothing when a resource fails
        id = (await createStageFromTemplate(projectId, { ...body, template, templateValues, ...(withSchedule && saving ? { savingSchedule: scheduleFields() } : {}) })).stageId;
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
  const templateDef = template ? ENVIRONMENT_TEMPLATES[template] : null;
  return (
    <form onSubmit={submit} noValidate>
    <Stack gap="lg" maw={860}>
      <PageHeader title={title} description={mode === 'replicate' && stage ? `A copy of ${stage.name} with its resources` : 'Where and how the environment is deployed'} />
      <Stack gap="lg">
          <FormSection title="General">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label="Name" placeholder="staging" withAsterisk {...form.field('name')} disabled={mode === 'edit' && locked} />
              <Select
                label="Cloud Provider" withAsterisk data={INFRA_CLOUD_PROVIDERS.map((p) => ({ value: p, label: providerLabel(p) }))}
                value={v.cloudProvider} onChange={(p) => p && setProvider(p)} disabled={providerToolLocked} error={form.errors.cloudProvider} allowDeselect={false}
              />
            </SimpleGrid>
            <Textarea label="Description" withAsterisk autosize minRows={2} mt="sm" {...form.field('description')} />
            <Select
              label="IaC Tool" withAsterisk mt="sm" maw={360} allowDeselect={false}
              data={[{ value: 'terraform', label: 'Terraform' }, { value: 'cloudformation', label: 'Cloudformation' }]}
              value={v.infrastructureAsCodeTool} onChange={(t) => t && setTool(t)} disabled={providerToolLocked || v.cloudProvider !== 'aws'} error={form.errors.infrastructureAsCodeTool}
            />
          </FormSection>

          <FormSection title="Cloud account" description="The account the environment deploys to">
            {v.cloudProvider === 'aws' && (
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select label="AWS Account" placeholder="Select an AWS account" data={awsOptions} withAsterisk maxDropdownHeight={300} disabled={locked} nothingFoundMessage="Connect an AWS account in Settings → Cloud Accounts" {...form.field('awsAccountId')} />
                <Select label="Region" placeholder="Select a region" data={[...AWS_REGIONS]} searchable withAsterisk maxDropdownHeight={300} disabled={locked} {...form.field('awsRegion')} />
              </SimpleGrid>
            )}
            {v.cloudProvider === 'azurerm' && (
              <Stack gap="sm">
                {azureOptions.length > 0 && mode !== 'edit' && (
                  <Select label="Azure subscription" placeholder="Pick a connected subscription" data={azureOptions} maxDropdownHeight={300} disabled={locked}
                    value={v.tenantId && v.subscriptionId ? `${v.tenantId}|${v.subscriptionId}` : null}
                    onChange={(x) => { const [t, s] = (x ?? '|').split('|'); form.setValue('tenantId', t ?? ''); form.setValue('subscriptionId', s ?? ''); }} />
                )}
                <SimpleGrid cols={{ base: 1, sm: 2 }}>
                  <TextInput label="Tenant ID" withAsterisk disabled={mode === 'edit'} {...form.field('tenantId')} />
                  <TextInput label="Subscription ID" withAsterisk disabled={mode === 'edit'} {...form.field('subscriptionId')} />
                </SimpleGrid>
              </Stack>
            )}
            {v.cloudProvider === 'google' && (
              <SimpleGrid cols={{ base: 1, sm: 3 }}>
                <Select label="GCP Project" placeholder="Select a project" data={gcpOptions} withAsterisk maxDropdownHeight={300} disabled={locked} {...form.field('gcpProjectId')} />
                <Select label="Region" placeholder="Select a region" data={Object.keys(GCP_REGIONS)} searchable withAsterisk maxDropdownHeight={300} disabled={locked}
                  value={v.gcpRegion || null} onChange={setGcpRegion} error={form.errors.gcpRegion} />
                <Select label="Zone" placeholder="Select a zone" data={zones} withAsterisk maxDropdownHeight={300} disabled={locked || !v.gcpRegion} {...form.field('gcpZone')} />
              </SimpleGrid>
            )}
          </FormSection>

          {mode === 'create' && v.cloudProvider === 'aws' && v.infrastructureAsCodeTool === 'cloudformation' && (
            <FormSection title="Template" description="Start from a ready-made environment">
              <Chip.Group value={template ?? ''} onChange={(t) => { const next = isTemplateName(t as string) ? (t as TemplateName) : null; setTemplate(next); setParams(next ? { template: next } : {}, { replace: true }); }}>
                <Group gap="xs">
                  <Chip value="">No template</Chip>
                  <Chip value="strapi">Strapi</Chip>
                  <Chip value="kubernetes">Kubernetes</Chip>
                </Group>
              </Chip.Group>
              {templateDef && (
                <Stack gap="sm" mt="sm" data-testid="template-inputs">
                  <Text size="sm" c="dimmed">{templateDef.description}</Text>
                  <SimpleGrid cols={{ base: 1, sm: 2 }}>
                    {templateDef.inputs.map((i) => (i.options ? (
                      <Select key={i.key} label={i.label} withAsterisk={i.required} data={i.options.map(String)} value={String(templateValues[i.key] ?? '')}
                        onChange={(x) => setTemplateValues((s) => ({ ...s, [i.key]: typeof i.options![0] === 'number' ? Number(x) : x ?? '' }))} allowDeselect={false} />
                    ) : typeof i.default === 'number' ? (
                      <NumberInput key={i.key} label={i.label} withAsterisk={i.required} min={1} value={Number(templateValues[i.key] ?? i.default)} onChange={(x) => setTemplateValues((s) => ({ ...s, [i.key]: Number(x) }))} />
                    ) : (
                      <TextInput key={i.key} label={i.label} withAsterisk={i.required} value={String(templateValues[i.key] ?? '')} onChange={(e) => { const val = e.currentTarget.value; setTemplateValues((s) => ({ ...s, [i.key]: val })); }} />
                    )))}
                  </SimpleGrid>
                </Stack>
              )}
            </FormSection>
          )}

          {v.cloudProvider === 'aws' && (
            <FormSection title="Saving schedule" description="Wake the environment's resources up and put them to sleep on a schedule">
              {costBlocked ? (
                <Text size="sm" c="dimmed">Saving schedules come with the Cloud Waste Manager. <a href={UPGRADE_PATH}>Upgrade Plan</a></Text>
              ) : (
                <Stack gap="sm">
                  <Switch label="Enable saving" checked={saving} onChange={(e) => { const on = e.currentTarget.checked; setSaving(on); if (!on) setSchedule({ name: '', days: DEFAULT_SAVING_SCHEDULE.days, wakeHour: DEFAULT_SAVING_SCHEDULE.wakeHour, sleepHour: DEFAULT_SAVING_SCHEDULE.sleepHour, timezone: browserZone() }); }} />
                  {saving && (
                    <Stack gap="sm" data-testid="schedule-fields">
                      <SimpleGrid cols={{ base: 1, sm: 2 }}>
                        <TextInput label="Schedule name" withAsterisk value={schedule.name} onChange={(e) => { const name = e.currentTarget.value; setSchedule((s) => ({ ...s, name })); }} error={!schedule.name && scheduleError ? scheduleError : undefined} />
                        <TextInput label="Timezone" value={schedule.timezone} readOnly description="Hours are in your browser's zone and stored in UTC" />
                      </SimpleGrid>
                      <Checkbox.Group label="Days" value={schedule.days} onChange={(d) => setSchedule((s) => ({ ...s, days: WEEKDAYS.filter((w) => d.includes(w)) }))} error={scheduleError && !schedule.days.length ? scheduleError : undefined}>
                        <Group gap="md" mt={6}>{WEEKDAYS.map((d) => <Checkbox key={d} value={d} label={WEEKDAY_LABEL[d]} />)}</Group>
                      </Checkbox.Group>
                      <SimpleGrid cols={{ base: 1, sm: 2 }}>
                        <Select label="Wake up at" data={SCHEDULE_HOURS} value={SCHEDULE_HOURS[schedule.wakeHour]} onChange={(h) => setSchedule((s) => ({ ...s, wakeHour: SCHEDULE_HOURS.indexOf(h ?? '08:00') }))} allowDeselect={false} maxDropdownHeight={300} />
                        <Select label="Sleep at" data={SCHEDULE_HOURS} value={SCHEDULE_HOURS[schedule.sleepHour]} onChange={(h) => setSchedule((s) => ({ ...s, sleepHour: SCHEDULE_HOURS.indexOf(h ?? '18:00') }))} allowDeselect={false} maxDropdownHeight={300} />
                      </SimpleGrid>
                      {scheduleError && <Text size="xs" c="red">{scheduleError}</Text>}
                    </Stack>
                  )}
                </Stack>
              )}
            </FormSection>
          )}
      </Stack>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => navigate(-1)}>Cancel</Button>
        <Button type="submit" loading={busy}>{mode === 'edit' ? 'Update Environment' : mode === 'replicate' ? 'Replicate Environment' : 'Create Environment'}</Button>
      </Group>
      <Modal opened={Boolean(planLimit)} onClose={() => setPlanLimit(null)} title={<Text fw={600}>Plan limit reached</Text>} centered>
        <Stack>
          <Text size="sm">{planLimit}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPlanLimit(null)}>Close</Button>
            <Button onClick={() => navigate(UPGRADE_PATH)}>Upgrade Plan</Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
    </form>
  );
}
