import { Anchor, Stack, Switch, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { UPGRADE_PATH } from '../../../api/toast';
import { FormSection } from '../../../ui/FormSection';
import { ScheduleTimeFields } from '../../../ui/ScheduleTimeFields';
import { scheduleMessages } from '@gantry/contracts';
import { defaultSchedule, type EnvironmentForm } from './environment-form';

/**
 * The environment's saving schedule (spec §2, AWS only): wake and sleep hours on chosen days, in the browser's zone.
 * Its message (errors.schedule, from SavingScheduleFields on submit) stays until the next submit.
 */
export function SavingScheduleSection({ form, costBlocked }: { form: EnvironmentForm; costBlocked: boolean }) {
  const { saving, schedule } = form.values;
  const scheduleError = form.errors.schedule;
  // one message, told once: the name's under the name, the days' and hours' under them (it was under both)
  const nameError = scheduleError === scheduleMessages.name ? scheduleError : undefined;
  const timesError = scheduleError === scheduleMessages.name ? undefined : scheduleError;
  return (
    <FormSection title="Saving schedule" description="Wake the environment's resources up and put them to sleep on a schedule">
      {costBlocked ? (
        <Text size="sm" c="dimmed">
          Saving schedules come with the Cloud Waste Manager.{' '}
          <Anchor component={Link} to={UPGRADE_PATH} size="sm">
            Upgrade Plan
          </Anchor>
        </Text>
      ) : (
        <Stack gap="sm">
          <Switch
            label="Enable saving"
            checked={saving}
            onChange={(e) => {
              const on = e.currentTarget.checked;
              form.setValues(on ? { saving: on } : { saving: on, schedule: defaultSchedule() });
            }}
          />
          {saving && (
            <Stack gap="sm" data-testid="schedule-fields">
              <TextInput
                label="Schedule name"
                withAsterisk
                value={schedule.name}
                onChange={(e) => form.setFieldValue('schedule.name', e.currentTarget.value)}
                error={nameError}
              />
              <ScheduleTimeFields
                value={schedule}
                onChange={(patch) => {
                  // field by field: the schedule's message stays until the next submit
                  if (patch.days) form.setFieldValue('schedule.days', patch.days);
                  if (patch.wakeHour !== undefined) form.setFieldValue('schedule.wakeHour', patch.wakeHour);
                  if (patch.sleepHour !== undefined) form.setFieldValue('schedule.sleepHour', patch.sleepHour);
                }}
                error={timesError}
              />
            </Stack>
          )}
        </Stack>
      )}
    </FormSection>
  );
}
