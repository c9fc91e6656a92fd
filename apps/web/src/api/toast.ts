import { createElement, Fragment } from 'react';
import { notifications } from '@mantine/notifications';
import { placeToasts } from '../ui/toast-clearance';
import { errorMessage, isPlanLimit } from './errors';

/** Toasts: top-right, closable, no progress bar (spec §8); the position is set once on <Notifications>. */
const base = { withCloseButton: true, autoClose: 5000 } as const;

/** Every toast opens below the page's header rows and clear of the primary actions under them (toast-clearance). */
function show(options: Parameters<typeof notifications.show>[0]) {
  if (typeof document !== 'undefined') placeToasts();
  return notifications.show(options);
}

/** Where a 402 sends the user (spec §8: Upgrade Plan → /settings?tab=billing). */
export const UPGRADE_PATH = '/settings?tab=billing';

let formErrorsId: string | undefined;

/**
 * A page's success toasts close when the user leaves the page (its route's path changes): what they confirm was done
 * there, and left up they lay over the next page's content (an environment's 'Successfully updated …' over the
 * insights' events table, its Reason column). Errors, warnings and infos stay their time: they may still need reading.
 * A success shown just before a route change announces the page it goes to (save, then the details): it stays there,
 * and closes when the user leaves that one.
 */
const pageSuccesses = new Map<string, number>();
/** How shortly before a route change a success is the change's own (shown in the same step as its navigate()). */
export const ANNOUNCES_NAVIGATION_MS = 1000;
let currentPath: string | undefined;

/** Told every route (the router's, or its pending navigation's, path): closes the success toasts of a page left. */
export function followRoute(pathname: string, now = Date.now()) {
  const left = currentPath !== undefined && pathname !== currentPath;
  currentPath = pathname;
  if (!left) return;
  for (const [id, shownAt] of pageSuccesses) {
    if (now - shownAt <= ANNOUNCES_NAVIGATION_MS) continue;
    pageSuccesses.delete(id);
    notifications.hide(id);
  }
}

export const toast = {
  /** Closes every toast shown or waiting (a login: what the signed-out attempts said no longer holds). */
  clear: () => notifications.clean(),
  success: (message: string, title?: string) => {
    const id: string = show({ ...base, color: 'teal', title, message, onClose: () => pageSuccesses.delete(id) });
    pageSuccesses.set(id, Date.now());
    return id;
  },
  info: (message: string, title?: string) => show({ ...base, color: 'blue', title, message }),
  /** Closes a toast before its time (shown ones answer their id), e.g. a 'Please wait...' once the wait is over. */
  dismiss: (id: string) => notifications.hide(id),
  warning: (message: string, title?: string) => show({ ...base, color: 'yellow', title, message }),
  error: (message: string, title?: string) => show({ ...base, color: 'red', title, message, autoClose: 8000 }),
  /**
   * A form's validation messages together in one toast, one a line (spec: shown together in one toast and
   * under the fields). It takes the place of the form's last one, which may name a field corrected since;
   * with no messages left it only takes that one away.
   */
  formErrors: (messages: string[]) => {
    if (formErrorsId) notifications.hide(formErrorsId);
    formErrorsId = messages.length
      ? show({ ...base, color: 'red', message: messages.join('\n'), autoClose: 8000, styles: { description: { whiteSpace: 'pre-line' } } })
      : undefined;
  },
  /**
   * An error toast with the server message, else the fallback ('Something went wrong!' by default).
   * A 402 (plan gate) also offers the Upgrade Plan link.
   */
  apiError: (error: unknown, fallback?: string) => {
    const text = errorMessage(error, fallback);
    const message = isPlanLimit(error)
      ? createElement(Fragment, null, `${text} `, createElement('a', { href: UPGRADE_PATH, style: { fontWeight: 600 } }, 'Upgrade Plan'))
      : text;
    return show({ ...base, color: isPlanLimit(error) ? 'violet' : 'red', message, autoClose: 8000 });
  },
};
