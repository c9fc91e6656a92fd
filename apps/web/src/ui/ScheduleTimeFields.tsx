import { Checkbox, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { SCHEDULE_HOURS, WEEKDAYS, type Weekday } from '@gantry/contracts';

const WEEKDAY_LABEL: Record<Weekday, string> = { MON: 'Mon', TUE: 'Tue', WED: 'Wed', THU: 'Thu', FRI: 'Fri', SAT: 'Sat', SUN: 'Sun' };

export type ScheduleTimes = { days: Weekday[]; wakeHour: number; sleepHour: number; timezone: string };

/** The zone the hours are picked in: the browser's (the cron expressions are stored in UTC from its offset). */
export const browserTimezone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * The days, wake and sleep hours and timezone of a saving schedule (spec §9: hours 00 to 23 in one-hour steps,
 * weekdays Monday to Sunday), shared by the environment form and the Cloud Waste Manager's schedule form.
 * `error` is the schedule's range message ('Please select at least one day and time range').
 */
export function ScheduleTimeFields({ value, onChange, error }: { value: ScheduleTimes; onChange: (patch: Partial<ScheduleTimes>) => void; error?: string }) {
  return (
    <Stack gap="sm">
      <Checkbox.Group
        label="Days"
        value={value.days}
        onChange={(d) => onChange({ days: WEEKDAYS.filter((w) => d.includes(w)) })}
        error={error && !value.days.length ? error : undefined}
      >
        <Group gap="md" mt={6}>
          {WEEKDAYS.map((d) => (
            <Checkbox key={d} value={d} label={WEEKDAY_LABEL[d]} />
          ))}
        </Group>
      </Checkbox.Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label="Wake up at"
          data={SCHEDULE_HOURS}
          value={SCHEDULE_HOURS[value.wakeHour]}
          onChange={(h) => onChange({ wakeHour: SCHEDULE_HOURS.indexOf(h ?? '08:00') })}
          allowDeselect={false}
          maxDropdownHeight={300}
        />
        <Select
          label="Sleep at"
          data={SCHEDULE_HOURS}
          value={SCHEDULE_HOURS[value.sleepHour]}
          onChange={(h) => onChange({ sleepHour: SCHEDULE_HOURS.indexOf(h ?? '18:00') })}
          allowDeselect={false}
          maxDropdownHeight={300}
        />
        {/* its description under the field, so that the three fields stand on one line */}
        <TextInput
          label="Timezone"
          value={value.timezone}
          readOnly
          description="Your browser's zone; stored in UTC"
          inputWrapperOrder={['label', 'input', 'description']}
        />
      </SimpleGrid>
      {/* under the hours, unless it is already told under the days */}
      {error && value.days.length > 0 && (
        <Text size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
