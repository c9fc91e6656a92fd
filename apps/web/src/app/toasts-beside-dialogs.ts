/** The CSS variable global.css caps top-right toasts' width at while a dialog is open. */
const MAX_WIDTH = '--gantry-toast-max-width';
/** The toasts' distance from the window's right edge (Notifications' spacing md) and their gap to the dialog. */
const EDGE = 16;
const GAP = 12;
/** Narrower than this (a small window), toasts keep their width and lie behind the dialog's content (app/theme.ts). */
export const MIN_TOAST_WIDTH = 200;
/** A toast's height before it is cut (Mantine's 200 px cut a long deploy failure, wrapped beside a dialog, at both ends). */
export const TOAST_MAX_HEIGHT = 480;

/**
 * The width top-right toasts may take beside the open dialogs (their content's right edges, in px from the window's
 * left), or undefined: no dialog open, or too little room beside it.
 */
export function toastWidthBesideDialogs(windowWidth: number, dialogRights: number[]): number | undefined {
  if (!dialogRights.length) return undefined;
  const width = Math.floor(windowWidth - Math.max(...dialogRights) - GAP - EDGE);
  return width >= MIN_TOAST_WIDTH ? width : undefined;
}

/**
 * While a dialog is open, top-right toasts are only as wide as the room between the dialog and the window's edge
 * (a long message wraps there): toasts lie below a dialog's content, so a wide one was partly hidden behind it, and
 * above it one covered its controls. Dialogs render into Mantine's shared portal node, which is watched; the
 * window's resizes too. Answers the cleanup.
 */
export function keepToastsBesideDialogs(): () => void {
  const style = document.documentElement.style;
  let frame = 0;
  const place = () => {
    frame = 0;
    // The content's offsets are those of its layout, not of its opening transition's scale.
    const rights = [...document.querySelectorAll<HTMLElement>('.mantine-Modal-content')].map((c) => c.offsetLeft + c.offsetWidth);
    const width = toastWidthBesideDialogs(document.documentElement.clientWidth, rights);
    if (width === undefined) style.removeProperty(MAX_WIDTH);
    else style.setProperty(MAX_WIDTH, `${width}px`);
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
    style.removeProperty(MAX_WIDTH);
  };
}
