import { getDefaultZIndex } from '@mantine/core';

/** The CSS variables global.css places top-right toasts with while a dialog or drawer is open. */
const MAX_WIDTH = '--gantry-toast-max-width';
const RIGHT = '--gantry-toast-right';
const TOP = '--gantry-toast-top-over';
const Z_INDEX = '--gantry-toast-z-index';
/** The toasts' distance from the window's edges (Notifications' spacing md) and their gap to a dialog or drawer. */
const EDGE = 16;
const GAP = 12;
/** Narrower than this, toasts do not go beside a dialog or drawer: below it, or over it (toastPlace). */
export const MIN_TOAST_WIDTH = 200;
/** The room a toast needs below a dialog (a one-line toast is 64 px high); with less, toasts lie over the dialog. */
export const MIN_TOAST_ROOM_BELOW = 72;
/** A toast's height before it is cut (Mantine's 200 px cut a long deploy failure, wrapped beside a dialog, at both ends). */
export const TOAST_MAX_HEIGHT = 480;
/** Over a dialog's or drawer's content (theme.ts puts it at the modal's z-index + 2), below popovers (300). */
export const TOAST_OVER_Z_INDEX = getDefaultZIndex('modal') + 3;

/** An open dialog's or drawer's content, in px from the window's top left; `header`: its header row's bottom (title, close button). */
export interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  header?: number;
}

/**
 * Where top-right toasts go while dialogs or drawers are open (their content boxes), in a window of the given size:
 * - beside them: in the free column nearest the window's right edge that leaves a toast at least MIN_TOAST_WIDTH
 *   (`right` is the toasts' distance from the window's right edge, `maxWidth` their width there): right of a dialog
 *   or of a drawer on the left, left of a drawer on the right;
 * - else below them, over the overlay, when the window leaves MIN_TOAST_ROOM_BELOW under their lowest edge (`top`);
 * - else over their content (`over`, from `top`): in a narrow window a toast lay behind the dialog whose action it
 *   answers, unread, and a drawer on the right hid every toast whatever the window. Below their headers: at the
 *   window's top a toast lay over a dialog's close button (1099×700, the deploy dialog).
 * Undefined: nothing open, toasts where the page puts them.
 */
export function toastPlace(
  window: { width: number; height: number },
  boxes: Box[],
): { right: number; maxWidth: number } | { top: number } | { over: true; top: number } | undefined {
  if (!boxes.length) return undefined;
  let free = window.width; // the right end of the column being looked at
  for (const box of [...boxes].sort((a, b) => b.right - a.right)) {
    if (box.right < free) {
      const column = columnAt(window.width, box.right, free);
      if (column) return column;
    }
    free = Math.min(free, box.left);
  }
  const column = free > 0 ? columnAt(window.width, 0, free) : undefined;
  if (column) return column;
  const lowest = Math.max(...boxes.map((b) => b.bottom));
  if (window.height - lowest - GAP - EDGE >= MIN_TOAST_ROOM_BELOW) return { top: Math.ceil(lowest + GAP) };
  return { over: true, top: Math.ceil(Math.max(EDGE - GAP, ...boxes.map((b) => b.header ?? 0)) + GAP) };
}

/** Toasts in the free column [from, to] of the window (the window's edges keep EDGE, a dialog's or drawer's GAP). */
function columnAt(windowWidth: number, from: number, to: number) {
  const right = to >= windowWidth ? EDGE : windowWidth - to + GAP;
  const maxWidth = Math.floor(windowWidth - right - from - (from <= 0 ? EDGE : GAP));
  return maxWidth >= MIN_TOAST_WIDTH ? { right, maxWidth } : undefined;
}

/**
 * While a dialog or drawer is open, top-right toasts are kept readable beside it (only as wide as the room there, so a
 * long message wraps), below it or over it (toastPlace): toasts lie below a dialog's content, so a wide one was partly
 * hidden behind it, and above it one covered its controls. Dialogs and drawers render into Mantine's shared portal
 * node, which is watched; the window's resizes too. Answers the cleanup.
 */
export function keepToastsBesideDialogs(): () => void {
  const style = document.documentElement.style;
  const set = (name: string, value: string | undefined) => (value === undefined ? style.removeProperty(name) : style.setProperty(name, value));
  let frame = 0;
  const place = () => {
    frame = 0;
    // The content's offsets are those of its layout, not of its opening transition's scale or slide.
    const boxes = [...document.querySelectorAll<HTMLElement>('.mantine-Modal-content, .mantine-Drawer-content')].map((c) => {
      // the header is the content's first row, and stays its top one while the body scrolls (sticky)
      const header = c.querySelector<HTMLElement>(':scope > .mantine-Modal-header, :scope > .mantine-Drawer-header');
      return {
        left: c.offsetLeft,
        right: c.offsetLeft + c.offsetWidth,
        top: c.offsetTop,
        bottom: c.offsetTop + c.offsetHeight,
        header: header ? c.offsetTop + header.offsetHeight : undefined,
      };
    });
    const root = document.documentElement;
    const at = toastPlace({ width: root.clientWidth, height: root.clientHeight }, boxes);
    set(MAX_WIDTH, at && 'maxWidth' in at ? `${at.maxWidth}px` : undefined);
    set(RIGHT, at && 'right' in at ? `${at.right}px` : undefined);
    set(TOP, at && 'top' in at ? `${at.top}px` : undefined);
    set(Z_INDEX, at && 'over' in at ? String(TOAST_OVER_Z_INDEX) : undefined);
  };
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(place);
  };
  const portalWatch = new MutationObserver(schedule);
  let portal: Element | null = null;
  const findPortal = () => {
    const node = document.querySelector('[data-mantine-shared-portal-node]');
    if (!node || node === portal) return;
    portal = node;
    portalWatch.observe(node, { childList: true, subtree: true });
  };
  const bodyWatch = new MutationObserver(() => {
    findPortal();
    schedule();
  });
  bodyWatch.observe(document.body, { childList: true });
  findPortal();
  window.addEventListener('resize', schedule);
  return () => {
    bodyWatch.disconnect();
    portalWatch.disconnect();
    window.removeEventListener('resize', schedule);
    cancelAnimationFrame(frame);
    for (const name of [MAX_WIDTH, RIGHT, TOP, Z_INDEX]) style.removeProperty(name);
  };
}
