/** The CSS variable global.css places top-right toasts at (the default offset when no header sets it). */
const TOAST_TOP = '--gantry-toast-top';
const GAP = 12;

/**
 * A ref for a page's header row: top-right toasts start below it, so they never cover its actions
 * (Trigger, Edit, Delete, Create…). Its bottom is taken in page coordinates: when the page scrolls the
 * header moves up and the toasts stay clear. Re-measured when the header or the content above it resizes.
 */
export function toastClearance(header: HTMLElement | null): (() => void) | undefined {
  if (!header) return undefined;
  const root = document.documentElement.style;
  const place = () => root.setProperty(TOAST_TOP, `${Math.round(header.getBoundingClientRect().bottom + window.scrollY + GAP)}px`);
  place();
  const observer = new ResizeObserver(place);
  observer.observe(header);
  if (header.parentElement) observer.observe(header.parentElement);
  return () => {
    observer.disconnect();
    root.removeProperty(TOAST_TOP);
  };
}
