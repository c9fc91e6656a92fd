import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Component, Stage } from '@gantry/contracts';
import { ComponentSideList } from './ComponentSideList';

const network = (id: string, providedBy: string | null) =>
  ({ id, name: 'network', type: 'Vpc', infrastructureAsCodeTool: 'terraform', cloudProvider: 'aws', isPublic: false, providedBy }) as unknown as Component;
vi.mock('../../components', () => ({
  useComponents: () => ({ isPending: false, isSuccess: true, data: [network('own', null), network('shared', 'Provided by project Walk')] }),
}));

describe('ComponentSideList', () => {
  it("tells a component shared from another project from the project's own of the same name", () => {
    const html = renderToStaticMarkup(
      <MantineProvider>
        <ComponentSideList projectId="p1" stage={{ cloudProvider: 'aws', infrastructureAsCodeTool: 'terraform' } as Stage} onPick={() => {}} />
      </MantineProvider>,
    );
    expect(html.match(/Vpc · Terraform/g)).toHaveLength(2);
    expect(html.match(/>Provided by project Walk</g)).toHaveLength(1);
  });
});
