import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ScheduleTimeFields } from './ScheduleTimeFields';

describe('ScheduleTimeFields', () => {
  it("puts the Timezone's description under its field, so its field stands on the line of Wake up at and Sleep at", () => {
    const html = renderToStaticMarkup(
      <MantineProvider>
        <ScheduleTimeFields value={{ days: ['MON'], wakeHour: 8, sleepHour: 18, timezone: 'Europe/Vienna' }} onChange={() => {}} />
      </MantineProvider>,
    );
    const label = html.indexOf('>Timezone<');
    const field = html.indexOf('value="Europe/Vienna"');
    const description = html.indexOf('Your browser&#x27;s zone; stored in UTC');
    expect(label).toBeGreaterThan(-1);
    expect(description).toBeGreaterThan(-1);
    expect(label).toBeLessThan(field);
    expect(field).toBeLessThan(description);
  });
});
