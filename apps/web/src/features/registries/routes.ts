import type { RouteObject } from 'react-router';
import { formPage, lazyPage } from '../../ui/lazy-page';

/**
 * The Docker registries routes (spec delivery §2), lazy pages inside the signed-in shell:
 * /kubernetes/docker-registries, /kubernetes/docker-registries/add, /kubernetes/docker-registries/:registryName/edit.
 */
export const registryRoutes: RouteObject[] = [
  { path: '/kubernetes/docker-registries', ...lazyPage(() => import('./pages/RegistriesPage')) },
  { path: '/kubernetes/docker-registries/add', ...formPage('/kubernetes/docker-registries', () => import('./pages/RegistryFormPage')) },
  { path: '/kubernetes/docker-registries/:registryName/edit', ...formPage('/kubernetes/docker-registries', () => import('./pages/RegistryFormPage')) },
];
