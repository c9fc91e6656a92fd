import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SearchableTableCard } from './SearchableTableCard';

const render = (props: Partial<Parameters<typeof SearchableTableCard>[0]>) =>
  renderToStaticMarkup(
    <MantineProvider>
      <SearchableTableCard empty={null} noun={['registry', 'registries']} search={{ value: '', onChange: () => {} }} {...props}>
        <table data-testid="rows" />
      </SearchableTableCard>
    </MantineProvider>,
  );

describe('SearchableTableCard', () => {
  it('counts what the list holds in its noun, one or many, and names the search box after it', () => {
    expect(render({ total: 1 })).toContain('1 registry<');
    const many = render({ total: 3 });
    expect(many).toContain('3 registries<');
    expect(many).toContain('placeholder="Search registries..."');
    expect(many).toContain('aria-label="Search registries"');
    expect(many).toContain('data-testid="rows"');
  });

  it('shows no count while loading, and the error in place of the table', () => {
    const html = render({ error: { message: 'The registry list failed' } });
    expect(html).not.toMatch(/\d+ registr/);
    expect(html).toContain('The registry list failed');
    expect(html).not.toContain('data-testid="rows"');
  });

  it("draws nothing for a plan limit: the page's Upgrade prompt says it, not a search box over the same words again", () => {
    const html = render({ error: { message: 'Your plan does not include Cloud Cost Optimizer. Upgrade your plan to use it.', planLimit: true } });
    expect(html).not.toContain('Search registries');
    expect(html).not.toContain('does not include');
    expect(html).not.toContain('mantine-Card-root');
  });

  it('shows only the empty state, its icon in the given colour, when the list has none at all', () => {
    const html = render({
      empty: { title: 'No Docker registries yet', icon: <svg data-testid="icon" />, color: 'indigo', action: <button>Add</button> },
      total: 0,
    });
    expect(html).toContain('No Docker registries yet');
    expect(html).toContain('data-testid="icon"');
    expect(html).toContain('--mantine-color-indigo');
    expect(html).not.toContain('Search registries');
    expect(html).not.toContain('data-testid="rows"');
  });
});
