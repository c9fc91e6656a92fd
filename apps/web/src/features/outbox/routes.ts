import type { RouteObject } from 'react-router';
import { lazyPage } from '../../ui/lazy-page';

/** /outbox: the e-mails of an instance without SMTP; open signed in and signed out (the page itself checks access). */
export const outboxRoutes: RouteObject[] = [{ path: '/outbox', ...lazyPage(() => import('./OutboxPage')) }];
