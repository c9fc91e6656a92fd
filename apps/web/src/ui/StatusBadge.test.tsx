import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { StatusBadge } from './StatusBadge';

describe('StatusBadge', () => {
  it("is never narrower than its word, so a squeezed table column cannot cut SUCCEEDED to 'SUC…'", () => {
    const html = renderToStaticMarkup(
      <MantineProvider>
        <StatusBadge status="SUCCEEDED" />
      </MantineProvider>,
    );
    const badge = html.match(/<div [^>]*class="[^"]*mantine-Badge-root[^"]*"[^>]*>/)![0];
    expect(badge).toMatch(/style="[^"]*min-width:\s*max-content/);
    expect(html).toContain('SUCCEEDED');
  });
});
