import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { SchemaInput } from '@gantry/contracts';
import { InputField } from './ResourceModal';

const field = (input: Partial<SchemaInput>) =>
  renderToStaticMarkup(
    <MantineProvider>
      <InputField
        input={{ name: 'Domain', type: 'string', enum: null, description: 'Public domain of the app (optional)', sensitive: false, required: false, ...input }}
        entry={undefined}
        onChange={() => {}}
        suggestions={[]}
      />
    </MantineProvider>,
  );

describe('InputField', () => {
  it("tells an input's default as its placeholder, and no 'Default:' for an empty one", () => {
    expect(field({ default: 'shop.example.com' })).toContain('placeholder="Default: shop.example.com"');
    expect(field({ default: 2 })).toContain('placeholder="Default: 2"');
    for (const empty of ['', null, undefined]) expect(field({ default: empty })).not.toContain('Default:');
  });
});
