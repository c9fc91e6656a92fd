/** Set on a toast the mouse is over (not on its close button nor a link of it): global.css makes it see-through. */
export const SEE_THROUGH = 'data-see-through';
const TOAST = '.mantine-Notification-root';
/** What of a toast stays a toast's to click: its close button, a link in its message (Upgrade Plan). */
const CONTROLS = 'button, a';

type Box = { left: number; top: number; right: number; bottom: number };
const inside = (x: number, y: number, b: Box) => x >= b.left && x <= b.right && y >= b.top && y <= b.bottom;

/** Whether a toast lets the mouse at (x, y) through: over its box, but not over one of its controls' boxes. */
export function letsThrough(x: number, y: number, toast: Box, controls: Box[]): boolean {
  return inside(x, y, toast) && !controls.some((c) => inside(x, y, c));
}

/**
 * A toast never keeps the user from what it lies over. Top-right toasts go below a page's header rows and clear of its
 * primary actions (ui/toast-clearance.ts), but below them lie tables and cards whose own actions sit at their right
 * end, in the toasts' column (Access Management's Edit, Resend and Remove, an environment's resource count and
 * resource actions): for the toast's 5 s (8 s for an error) no click reached them, and the toast hid them. No place at
 * the top right is free on every screen, so the toast gives way to the pointer: with the mouse over it, it turns almost
 * transparent and lets clicks through to what lies under it, and is back as the mouse leaves it. Its close button and
 * links stay its own. On a touch screen (no hover) a tap on a toast closes it, as its close button does, and the next
 * tap reaches what it covered. Answers the cleanup.
 */
export function letPointerThroughToasts(): () => void {
  const onMove = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') return;
    for (const toast of document.querySelectorAll<HTMLElement>(TOAST)) {
      const controls = Array.from(toast.querySelectorAll(CONTROLS), (c) => c.getBoundingClientRect());
      toast.toggleAttribute(SEE_THROUGH, letsThrough(e.clientX, e.clientY, toast.getBoundingClientRect(), controls));
    }
  };
  const onTap = (e: PointerEvent) => {
    if (e.pointerType === 'mouse' || !(e.target instanceof Element) || e.target.closest(CONTROLS)) return;
    e.target.closest(TOAST)?.querySelector<HTMLButtonElement>('.mantine-Notification-closeButton')?.click();
  };
  const onLeaveWindow = () => document.querySelectorAll(`[${SEE_THROUGH}]`).forEach((t) => t.removeAttribute(SEE_THROUGH));
  document.addEventListener('pointermove', onMove, { capture: true, passive: true });
  document.addEventListener('pointerup', onTap, { capture: true });
  document.documentElement.addEventListener('pointerleave', onLeaveWindow);
  return () => {
    document.removeEventListener('pointermove', onMove, { capture: true });
    document.removeEventListener('pointerup', onTap, { capture: true });
    document.documentElement.removeEventListener('pointerleave', onLeaveWindow);
    onLeaveWindow();
  };
}
