import { Checkbox, Group, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { SCHEDULE_HOURS, WEEKDAYS, type Weekday } from '@gantry/contracts';
import { UPGRADE_PATH } from '../../../api/toast';
import { FormSection } from '../../../ui/FormSection';
import { defaultSchedule, type EnvironmentForm } from './environment-form';

const WEEKDAY_LABEL: Record<Weekday, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };

/**
 * The environment's saving schedule (spec §2, AWS only): wake and sleep hours on chosen days, in the browser's zone.
 * Its message (errors.schedule, from SavingScheduleFields on submit) stays until the next submit.
 */
export function SavingScheduleSection({ form, costBlocked }: { form: EnvironmentForm; costBlocked: boolean }) {
  const { saving, schedule } = form.values;
  const scheduleError = form.errors.schedule;
  return (
    <FormSection title="Saving schedule" description="Wake the environment's resources up and put them to sleep on a schedule">
      {costBlocked ? (
        <Text size="sm" c="dimmed">
          Saving schedules come with the Cloud Waste Manager. <a href={UPGRADE_PATH}>Upgrade Plan</a>
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
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Schedule name"
                  withAsterisk
                  value={schedule.name}
                  onChange={(e) => form.setFieldValue('schedule.name', e.currentTarget.value)}
                  error={!schedule.name && scheduleError ? scheduleError : undefined}
                />
                <TextInput label="Timezone" value={schedule.timezone} readOnly description="Hours are in your browser's zone and stored in UTC" />
              </SimpleGrid>
              <Checkbox.Group
                label="Days"
                value={schedule.days}
                onChange={(d) =>
                  form.setFieldValue(
                    'schedule.days',
                    WEEKDAYS.filter((w) => d.includes(w)),
                  )
                }
                error={scheduleError && !schedule.days.length ? scheduleError : undefined}
              >
                <Group gap="md" mt={6}>
                  {WEEKDAYS.map((d) => (
                    <Checkbox key={d} value={d} label={WEEKDAY_LABEL[d]} />
                  ))}
                </Group>
              </Checkbox.Group>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label="Wake up at"
                  data={SCHEDULE_HOURS}
                  value={SCHEDULE_HOURS[schedule.wakeHour]}
                  onChange={(h) => form.setFieldValue('schedule.wakeHour', SCHEDULE_HOURS.indexOf(h ?? '08:00'))}
                  allowDeselect={false}
                  maxDropdownHeight={300}
                />
                <Select
                  label="Sleep at"
                  data={SCHEDULE_HOURS}
                  value={SCHEDULE_HOURS[schedule.sleepHour]}
                  onChange={(h) => form.setFieldValue('schedule.sleepHour', SCHEDULE_HOURS.indexOf(h ?? '18:00'))}
                  allowDeselect={false}
                  maxDropdownHeight={300}
                />
              </SimpleGrid>
              {scheduleError && (
                <Text size="xs" c="red">
                  {scheduleError}
                </Text>
              )}
            </Stack>
          )}
        </Stack>
      )}
    </FormSection>
  );
}
