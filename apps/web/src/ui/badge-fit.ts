/** Props that keep a Badge whole in a narrow table cell (its label is never cut to '…'). */
export const BADGE_FIT = { style: { flexShrink: 0 }, styles: { label: { overflow: 'visible' } } } as const;
