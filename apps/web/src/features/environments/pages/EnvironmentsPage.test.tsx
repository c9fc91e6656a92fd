import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import EnvironmentsPage from './EnvironmentsPage';

const plan = { environmentsAllowed: 2 as number };
vi.mock('../api/stages', () => ({ useStages: () => ({ isPending: false, isError: false, data: [{ id: 's1' }, { id: 's2' }] }) }));
vi.mock('../api/lookups', () => ({ useSchedules: () => ({ data: [], error: null }) }));
vi.mock('../../settings', () => ({ useSubscription: () => ({ data: { limitations: { environmentsAllowed: plan.environmentsAllowed } } }) }));
vi.mock('../hooks/use-environment-actions', () => ({ useEnvironmentActions: () => ({ modal: null, askUndeploy: () => {}, askDelete: () => {} }) }));
vi.mock('../hooks/use-deployment-updates', () => ({ useDeploymentUpdates: () => {} }));
vi.mock('../components/EnvironmentCard', () => ({ EnvironmentCard: () => null }));
vi.mock('../../../ui/use-error-toast', () => ({ useErrorToast: () => {} }));
vi.mock('../../../api/session', () => ({ useCurrentProject: () => ({ id: 'p1', permission: 'owner' }) }));
vi.mock('../../../api/permissions', () => ({ useProjectPermission: () => ({ permission: 'owner', can: () => true, refusal: () => null }) }));

const render = () =>
  renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <EnvironmentsPage />
      </MemoryRouter>
    </MantineProvider>,
  );

describe('EnvironmentsPage', () => {
  it("with the plan's environments all used, Create Environment is disabled and says why (not a form the server refuses once filled in)", () => {
    plan.environmentsAllowed = 2;
    const html = render();
    expect(html).not.toContain('href="/environments/create"');
    expect(html).toMatch(/<span[^>]*data-refused="plan"[^>]*><button[^>]*disabled=""/);
  });

  it('with room left, Create Environment opens the form', () => {
    plan.environmentsAllowed = 10;
    const html = render();
    expect(html).toContain('href="/environments/create"');
    expect(html).not.toContain('data-refused');
  });
});
