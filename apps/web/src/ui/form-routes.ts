/// <reference types="vite/client" />
import type { ProjectAction } from '@gantry/contracts';
import type { RouteObject } from 'react-router';

/** What a form route needs: the action it takes and the list a refused member goes back to. */
export interface FormRouteHandle {
  form: { action: ProjectAction; back: string };
}

/** A path that opens a create or edit form, by the route table's naming (…/create, …/add, …/:id/edit, …/:id/replicate). */
export const FORM_PATH = /\/(create|add|new|edit|replicate)$/;

/** Every route of a route table, nested children included. */
export function flattenRoutes(routes: RouteObject[]): RouteObject[] {
  return routes.flatMap((r) => [r, ...flattenRoutes(r.children ?? [])]);
}

/** Every feature's route table (the features the shell mounts), so a form route added later is checked and walked too. */
export function featureRoutes(): RouteObject[] {
  const tables = import.meta.glob<Record<string, unknown>>('../features/*/routes.ts', { eager: true });
  return flattenRoutes(
    Object.values(tables).flatMap((m) =>
      Object.values(m)
        .filter((v): v is RouteObject[] => Array.isArray(v))
        .flat(),
    ),
  );
}

/** The routes that open a create or edit form: by their path, or marked by formPage(). */
export const formRoutes = (): RouteObject[] => featureRoutes().filter((r) => (r.path && FORM_PATH.test(r.path)) || formHandle(r));

export const formHandle = (route: RouteObject): FormRouteHandle['form'] | undefined => (route.handle as Partial<FormRouteHandle> | undefined)?.form;
