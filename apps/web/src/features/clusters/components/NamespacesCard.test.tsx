import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { NamespacesCard } from './NamespacesCard';

const render = (followNamespace?: string | null) =>
  renderToStaticMarkup(
    <MantineProvider>
      <MemoryRouter>
        <NamespacesCard
          clusterId="edge"
          namespaces={['default', 'kube-system', 'web']}
          loading={false}
          services={[]}
          servicesLoading={false}
          servicesError={null}
          canWrite
          onAction={() => {}}
          followNamespace={followNamespace}
        />
      </MemoryRouter>
    </MantineProvider>,
  );
/** The namespace whose tab is selected. */
const selected = (html: string) => /<button[^>]*aria-selected="true"[^>]*>[\s\S]*?<span[^>]*>([^<]+)<\/span>/.exec(html)?.[1];

describe('the namespaces card', () => {
  it('selects the first namespace (spec §2)', () => {
    expect(selected(render())).toBe('default');
  });

  it('selects the namespace of the rollout being followed, the first when the cluster has no such namespace', () => {
    expect(selected(render('web'))).toBe('web');
    expect(selected(render('gone'))).toBe('default');
  });
});
