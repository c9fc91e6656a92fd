import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

/** A route whose page module loads on first visit (code per route). */
export const lazyPage = (load: () => Promise<{ default: ComponentType }>): Pick<RouteObject, 'lazy'> => ({
  lazy: async () => ({ Component: (await load()).default }),
});
