import { createTheme, getDefaultZIndex, type MantineColorsTuple } from '@mantine/core';

const brand: MantineColorsTuple = ['#eef2ff', '#e0e7ff', '#c7d2fe', '#a5b4fc', '#818cf8', '#6366f1', '#4f46e5', '#4338ca', '#3730a3', '#312e81'];

/**
 * Toasts lie above a modal's or drawer's overlay (not dimmed nor blurred) but below its content and below popovers
 * (300): a toast never covers a dialog's close button, fields or an open dropdown. A dialog's content is one above them.
 * Toasts go beside an open dialog or drawer, or below it; only a window with no room for them there puts them over it
 * (app/toasts-beside-dialogs.ts).
 */
export const TOAST_Z_INDEX = getDefaultZIndex('modal') + 1;
const aboveToasts = { inner: { zIndex: 'calc(var(--mb-z-index) + 2)' } };

export const theme = createTheme({
  primaryColor: 'indigo',
  colors: { indigo: brand },
  primaryShade: 6,
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Button: { defaultProps: { radius: 'md' } },
    Card: { defaultProps: { shadow: 'xs' } },
    Modal: { defaultProps: { overlayProps: { backgroundOpacity: 0.45, blur: 2 } }, styles: aboveToasts },
    Drawer: { styles: aboveToasts },
    Tooltip: { defaultProps: { openDelay: 250 } },
    // Given no size, a password field's box took Mantine's md font (16 px) where every other field has sm (14 px): a
    // token, a secret or '(sensitive)' read larger than the fields around it. Its size is now the others'.
    PasswordInput: { defaultProps: { size: 'sm' } },
  },
});
