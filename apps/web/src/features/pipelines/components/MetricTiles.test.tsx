import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MetricTiles } from './MetricTiles';

const render = (unit?: string) =>
  renderToStaticMarkup(
    <MantineProvider>
      <MetricTiles tiles={[{ label: 'Build minutes spent', value: '0.01/500', unit, icon: <svg />, color: 'grape' }]} />
    </MantineProvider>,
  );

describe('MetricTiles', () => {
  it('says the unit in the value, which does not wrap, on a line of its own below the label and the icon', () => {
    const html = render('mins');
    const value = html.match(/<p[^>]*data-testid="tile-value"[^>]*>(.*?)<\/p>/)!;
    expect(value[0]).toContain('white-space:nowrap');
    expect(value[1]).toMatch(/^0\.01\/500<span[^>]*> mins<\/span>$/);
    // the icon is drawn before the value, beside the label, so the value has the tile's width
    expect(html.indexOf('mantine-ThemeIcon-root')).toBeLessThan(html.indexOf('data-testid="tile-value"'));
  });

  it('says no unit when the tile has none', () => {
    expect(render()).not.toContain(' mins');
  });
});
