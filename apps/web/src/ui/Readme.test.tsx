import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Readme } from './Readme';

const render = (text: string) =>
  renderToStaticMarkup(
    <MantineProvider>
      <Readme text={text} testId="readme" />
    </MantineProvider>,
  );

describe('Readme', () => {
  it('shows headings as headings, two levels below the page title, without their hashes', () => {
    const html = render('# nginx\n\n## Usage\n\nRuns *nginx* with **TLS** and `gzip`.');
    expect(html).toMatch(/<h3[^>]*>nginx<\/h3>/);
    expect(html).toMatch(/<h4[^>]*>Usage<\/h4>/);
    expect(html).toMatch(/<em>nginx<\/em>/);
    expect(html).toMatch(/<strong>TLS<\/strong>/);
    expect(html).toMatch(/<code[^>]*>gzip<\/code>/);
    expect(html).not.toContain('#');
    expect(html).toContain('data-testid="readme"');
  });

  it('shows a GFM table as a table, a pipe escaped in a cell kept as text', () => {
    const html = render('| name | description |\n| --- | :---: |\n| bucket | *Static site* bucket |\n| mode | `a \\| b` |');
    expect(html).toContain('data-testid="readme-table"');
    expect(html.match(/<tr/g)).toHaveLength(3);
    expect(html).toMatch(/<th[^>]*>name<\/th>/);
    expect(html).toMatch(/<td[^>]*><em>Static site<\/em> bucket<\/td>/);
    expect(html).toMatch(/<code[^>]*>a \| b<\/code>/);
    expect(html).not.toContain('---');
  });

  it('shows a fenced block as one code block, its markdown and HTML as text', () => {
    const html = render('```hcl\nmodule "web" {\n  # not a heading\n  source = "<b>x</b>"\n}\n```');
    const block = /<pre[^>]*>([^<]*)<\/pre>/.exec(html)?.[1];
    expect(block?.trimEnd()).toBe('module &quot;web&quot; {\n  # not a heading\n  source = &quot;&lt;b&gt;x&lt;/b&gt;&quot;\n}');
    expect(html).not.toMatch(/<h\d/);
  });

  it('keeps lists, ordered ones with their numbers', () => {
    const html = render('- one\n- two\n\n3. three\n4. four');
    expect(html).toMatch(/<ul[^>]*>.*one.*two.*<\/ul>/s);
    expect(html).toMatch(/<ol[^>]*start="3"[^>]*>.*three.*four.*<\/ol>/s);
  });

  it('links only to http(s) addresses; a javascript: or data: link is its text', () => {
    const html = render(
      '[docs](https://example.com/docs) [evil](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [rel](docs/x.md) <https://example.com/auto>',
    );
    expect(html).toMatch(/<a[^>]*href="https:\/\/example.com\/docs"[^>]*rel="noreferrer"[^>]*>docs<\/a>/);
    expect(html).toMatch(/<a[^>]*href="https:\/\/example.com\/auto"/);
    expect(html).toContain('<span>evil</span>');
    expect(html).toContain('<span>data</span>');
    expect(html).toContain('<span>rel</span>');
    expect(html).not.toMatch(/javascript:|data:text|href="docs/);
    expect(html.match(/<a /g)).toHaveLength(2);
  });

  it('renders no raw HTML, inline or as a block', () => {
    const html = render('<script>alert(1)</script>\n\n<div onclick="x()">block</div>\n\nText with <img src=x onerror=alert(1)> inline <b>bold</b>.');
    expect(html).not.toMatch(/<script|<div onclick|<img|onerror|<b>/);
    expect(html).toContain('Text with');
  });

  it('loads no image: its alt text links to it, or is only text when it is not http(s)', () => {
    const html = render('![diagram](https://tracker.example/pixel.png) ![local](./logo.png)');
    expect(html).not.toContain('<img');
    expect(html).toMatch(/<a[^>]*href="https:\/\/tracker.example\/pixel.png"[^>]*>diagram<\/a>/);
    expect(html).toContain('<span>local</span>');
  });
});
