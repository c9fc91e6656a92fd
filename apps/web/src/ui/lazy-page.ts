import type { ComponentType } from 'react';
import type { ProjectAction } from '@gantry/contracts';
import type { RouteObject } from 'react-router';
import type { FormRouteHandle } from './form-routes';

/** A route whose page module loads on first visit (code per route). */
export const lazyPage = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});

/**
 * A create or edit form's route: a member whose role may not take `action` (a `read` member typing the
 * URL) sees the read-only notice with a way back to `back`, not a form whose save the server refuses.
 */
export const formPage = (
  back: string,
  load: () => Promise<{ default: ComponentType }>,
  action: ProjectAction = 'change',
): Pick<RouteObject, 'lazy' | 'handle'> => ({
  handle: { form: { action, back } } satisfies FormRouteHandle,
  lazy: async () => {
    const [page, { guardForm }] = await Promise.all([load(), import('./ReadOnlyNotice')]);
    return { Component: guardForm(page.default, action, back) };
  },
});
