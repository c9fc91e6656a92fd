import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { AdminProjectPlan } from '@gantry/contracts';
import AdminPlansPage from './AdminPlansPage';
import { adminPlanKeys } from './api/keys';

const project = (name: string): AdminProjectPlan => ({
  id: name,
  name,
  createdAt: '2026-11-23T21:00:00.000Z',
  owners: ['walker@example.com'],
  plan: { id: 'STARTER', name: 'Starter' },
  status: 'TRIAL',
  expirationDate: '2026-12-07T21:00:00.000Z',
});

const render = (projects: AdminProjectPlan[]) => {
  const client = new QueryClient();
  client.setQueryData(adminPlanKeys.projects(), { projects });
  client.setQueryData(adminPlanKeys.plans(), { paymentPlans: [] });
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AdminPlansPage />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
};

describe('AdminPlansPage', () => {
  it("counts the instance's projects as the other lists do: '1 project', '2 projects'", () => {
    expect(render([project('Storefront')])).toMatch(/>1 project</);
    expect(render([project('Storefront'), project('Backoffice')])).toMatch(/>2 projects</);
  });
});
