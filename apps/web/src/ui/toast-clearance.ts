/** The CSS variable global.css places top-right toasts at (the default offset when no header sets it). */
const TOAST_TOP = '--gantry-toast-top';
const GAP = 12;
/** The toasts' distance from the window's top and right edges (Notifications' spacing md) and their widest (its container). */
const EDGE = 16;
const TOAST_WIDTH = 440;
/** The height a one-line toast takes (64 px) and its gap: the band below the toasts' top that must be clear. */
const TOAST_BAND = 76;
/** A page's primary actions: Mantine's filled buttons (the default variant), outside dialogs, drawers and toasts. */
const PRIMARY_ACTIONS = '.mantine-Button-root:not([data-variant]), .mantine-Button-root[data-variant="filled"]';

/** The rows toasts keep clear of: the page header's, and below it a row of controls such as the settings tabs. */
const rows = new Set<HTMLElement>();

/** Boxes in page coordinates: top and bottom in px from the page's top, left and right from the window's left. */
type Box = { top: number; bottom: number; left: number; right: number };

/**
 * Where the first top-right toast starts, in page coordinates: below the lowest row (or at the window's edge without
 * one), then further down past every primary action its band would lie over in the toasts' column (a card's toolbar
 * below the header, such as Access Management's Add New User). Undefined: at the window's edge. When clearing the
 * actions would put the toast out of the window, it stays below the rows.
 */
export function toastTop(rowsBottom: number | undefined, actions: Box[], window: { width: number; height: number }): number | undefined {
  // rows taller than the window leaves for a toast below them (a short window, a tall fact card): the toast at the
  // window's foot, in sight, rather than below it
  const start = rowsBottom === undefined ? EDGE : Math.max(EDGE, Math.min(rowsBottom + GAP, window.height - TOAST_BAND - EDGE));
  const columnLeft = window.width - EDGE - TOAST_WIDTH;
  const inColumn = actions.filter((a) => a.right > columnLeft && a.bottom > start);
  /** An action the band of a toast starting at `at` would lie over. */
  const under = (at: number) => inColumn.find((a) => a.top < at + TOAST_BAND && a.bottom > at);
  let top = start;
  for (let hit = under(top); hit; hit = under(top)) top = hit.bottom + GAP;
  if (top + TOAST_BAND > window.height) top = start;
  return rowsBottom === undefined && top === EDGE ? undefined : Math.round(top);
}

const pageBox = (el: Element): Box => {
  const r = el.getBoundingClientRect();
  return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, left: r.left, right: r.right };
};

/** Places the toasts (toastTop) from the rows and the page's primary actions as they are now. */
export function placeToasts() {
  const root = document.documentElement;
  const rowsBottom = rows.size ? Math.max(...[...rows].map((row) => pageBox(row).bottom)) : undefined;
  const actions = [...document.querySelectorAll(PRIMARY_ACTIONS)]
    .filter((b) => !b.closest('[data-mantine-shared-portal-node], .mantine-Notifications-root'))
    .map(pageBox)
    .filter((b) => b.bottom > b.top);
  const top = toastTop(rowsBottom, actions, { width: root.clientWidth, height: root.clientHeight });
  if (top === undefined) root.style.removeProperty(TOAST_TOP);
  else root.style.setProperty(TOAST_TOP, `${top}px`);
}

/**
 * A ref for a page's header row: top-right toasts start below it, so they never cover its actions
 * (Trigger, Edit, Delete, Create…). A page may give it more than one row (the header, then the settings tabs, or the
 * card of facts under it: Status, Last Deployed… read right after an action):
 * the toasts start below the lowest, and past the primary actions just below it (toastTop). Re-measured when a row or
 * the content above it resizes, and as each toast opens (toast.ts).
 */
export function toastClearance(header: HTMLElement | null): (() => void) | undefined {
  if (!header) return undefined;
  rows.add(header);
  placeToasts();
  const observer = new ResizeObserver(placeToasts);
  observer.observe(header);
  if (header.parentElement) observer.observe(header.parentElement);
  return () => {
    observer.disconnect();
    rows.delete(header);
    placeToasts();
  };
}
