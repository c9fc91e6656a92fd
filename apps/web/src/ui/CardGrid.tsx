import { SimpleGrid, type SimpleGridProps } from '@mantine/core';

/** The space between cards (Mantine's spacing lg). */
const GAP = 20;
/** A figure card's narrowest (a chart's ring and its legend, a total and its hint): four fit in 860 px. */
export const FIGURE_MIN_WIDTH = 200;

/**
 * Container widths at which a grid of cards at least `minWidth` px wide gains a column, up to `max`:
 * cardColumns(300, 3) is { base: 1, '620px': 2, '940px': 3 }. `even`: only counts that divide `max`, for a grid of
 * exactly `max` cards with no short last row (four tiles: 1, 2 or 4 columns, never 3 and 1).
 */
export function cardColumns(minWidth: number, max: number, even = false): Record<string, number> {
  const cols: Record<string, number> = { base: 1 };
  for (let n = 2; n <= max; n++) if (!even || max % n === 0) cols[`${n * minWidth + (n - 1) * GAP}px`] = n;
  return cols;
}

/**
 * The grid of the app's card lists (projects, components, environments), figure cards (a cluster's charts, the cost
 * explorer's totals) and the facts inside a header card (a cluster's, an environment's, a component's): as many columns of at least `minWidth` px as the grid's own width holds, up to `max`. Container
 * queries, not the window's width: with the side menu beside the page, the window's breakpoints put three cards where
 * two fitted.
 */
export function CardGrid({
  minWidth = 300,
  max = 3,
  even = false,
  ...others
}: Omit<SimpleGridProps, 'cols' | 'type' | 'spacing'> & { minWidth?: number; max?: number; even?: boolean }) {
  return <SimpleGrid type="container" cols={cardColumns(minWidth, max, even)} spacing="lg" {...others} />;
}
