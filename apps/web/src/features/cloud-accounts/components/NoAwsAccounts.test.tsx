import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NoAwsAccounts } from './NoAwsAccounts';

describe('NoAwsAccounts', () => {
  it('the AWS screens without an account (Cloud Waste Manager, schedules) show one orange badge, not a badge in a badge', () => {
    const html = renderToStaticMarkup(
      <MantineProvider>
        <MemoryRouter>
          <NoAwsAccounts description="Connect an AWS account to look for waste." />
        </MemoryRouter>
      </MantineProvider>,
    );
    expect(html.match(/class="[^"]*mantine-ThemeIcon-root/g)).toHaveLength(1);
    expect(html).toContain('--mantine-color-orange');
    expect(html).toContain('No AWS accounts connected');
  });
});
