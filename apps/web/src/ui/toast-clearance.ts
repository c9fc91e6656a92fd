/** The CSS variable global.css places top-right toasts at (the default offset when no header sets it). */
const TOAST_TOP = '--gantry-toast-top';
const GAP = 12;

/** The rows toasts keep clear of: the page header's, and below it a row of controls such as the settings tabs. */
const rows = new Set<HTMLElement>();

/** Toasts start below the lowest row, in page coordinates (when the page scrolls the rows move up, the toasts stay). */
function place() {
  const root = document.documentElement.style;
  if (!rows.size) return root.removeProperty(TOAST_TOP);
  const bottom = Math.max(...[...rows].map((row) => row.getBoundingClientRect().bottom));
  root.setProperty(TOAST_TOP, `${Math.round(bottom + window.scrollY + GAP)}px`);
}

/**
 * A ref for a page's header row: top-right toasts start below it, so they never cover its actions
 * (Trigger, Edit, Delete, Create…). A page may give it more than one row (the header, then the settings tabs):
 * the toasts start below the lowest. Re-measured when a row or the content above it resizes.
 */
export function toastClearance(header: HTMLElement | null): (() => void) | undefined {
  if (!header) return undefined;
  rows.add(header);
  place();
  const observer = new ResizeObserver(place);
  observer.observe(header);
  if (header.parentElement) observer.observe(header.parentElement);
  return () => {
    observer.disconnect();
    rows.delete(header);
    place();
  };
}
