import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { scheduleMessages } from '@gantry/contracts';
import type { EnvironmentForm } from './environment-form';
import { SavingScheduleSection } from './SavingScheduleSection';

describe('SavingScheduleSection', () => {
  it("on a plan without the Cloud Waste Manager, its Upgrade Plan is the app's link to billing (a router link, not a whole page load of the app)", () => {
    const form = { values: { saving: false, schedule: {} }, errors: {} } as unknown as EnvironmentForm;
    const html = renderToStaticMarkup(
      <MantineProvider>
        <MemoryRouter>
          <SavingScheduleSection form={form} costBlocked />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(html).toContain('Saving schedules come with the Cloud Waste Manager.');
    expect(html).toMatch(/<a [^>]*class="[^"]*mantine-Anchor-root[^"]*"[^>]*href="\/settings\?tab=billing"[^>]*>Upgrade Plan<\/a>/);
  });

  it.each([
    ['', scheduleMessages.name],
    ['nightly', scheduleMessages.range],
  ])("tells the schedule's message once, under the field it is about (name %j)", (name, message) => {
    const schedule = { name, days: message === scheduleMessages.range ? [] : ['MON'], wakeHour: 8, sleepHour: 18, timezone: 'UTC' };
    const form = {
      values: { saving: true, schedule },
      errors: { schedule: message },
      setFieldValue: () => {},
      setValues: () => {},
    } as unknown as EnvironmentForm;
    const html = renderToStaticMarkup(
      <MantineProvider>
        <MemoryRouter>
          <SavingScheduleSection form={form} costBlocked={false} />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(html.split(message).length - 1).toBe(1);
  });
});
