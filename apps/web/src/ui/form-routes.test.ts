import { describe, expect, test } from 'vitest';
import { FORM_PATH, formHandle, formRoutes } from './form-routes';

describe('form routes', () => {
  const forms = formRoutes();

  test('the features declare their create and edit forms', () => {
    expect(forms.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/pipelines/create', '/tools/schedules/:scheduleId/edit', '/kubernetes/docker-registries/add']),
    );
  });

  test.each(forms.map((r) => [r.path!, r] as const))('%s is a form route: a member who may not change shows the read-only notice', (_path, route) => {
    const form = formHandle(route);
    expect(form?.action).toBe('change');
    expect(form?.back).toMatch(/^\/[a-z]/);
    expect(route.path).toMatch(FORM_PATH);
  });
});
