import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { EnvironmentForm } from './environment-form';
import { EnvironmentAccountSection } from './EnvironmentAccountSection';

const none = { isSuccess: true, data: [] };
vi.mock('../../cloud-accounts', () => ({ useAwsAccounts: () => none, useAzureAccounts: () => none, useGcpAccounts: () => none }));

const render = (cloudProvider: string, mode: 'create' | 'edit' = 'create') => {
  const form = {
    values: { cloudProvider, tenantId: '', subscriptionId: '', gcpProjectId: '', gcpRegion: '', gcpZone: '', awsAccountId: '', awsRegion: '' },
    errors: {},
    getInputProps: () => ({}),
    setValues: () => {},
  } as unknown as EnvironmentForm;
  return renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <EnvironmentAccountSection form={form} mode={mode} locked={false} projectId="p1" />
      </MemoryRouter>
    </MantineProvider>,
  );
};

describe('EnvironmentAccountSection', () => {
  it.each([
    ['aws', 'AWS account'],
    ['azurerm', 'Azure subscription'],
    ['google', 'GCP project'],
  ])('with no %s account connected, says where to connect one (the server refuses an account the project has not)', (provider, what) => {
    const html = render(provider);
    expect(html).toContain(`No ${what} connected yet:`);
    expect(html).toMatch(/<a [^>]*href="\/settings\?tab=accounts"[^>]*>connect one in Settings<\/a>/);
  });

  it("an Azure environment's edit, whose ids cannot change, does not ask for another subscription", () => {
    expect(render('azurerm', 'edit')).not.toContain('connected yet');
  });
});
