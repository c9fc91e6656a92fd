import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stageMessages } from '@gantry/contracts';
import type { EnvironmentForm } from './environment-form';
import { EnvironmentGeneralSection } from './EnvironmentGeneralSection';

const render = (name: string, mode: 'create' | 'edit' = 'create', locked = false) => {
  const form = {
    values: { name, description: '', cloudProvider: 'aws', infrastructureAsCodeTool: 'terraform' },
    errors: {},
    getInputProps: (path: string) => ({ value: path === 'name' ? name : '', onChange: () => {}, error: undefined }),
    setValues: () => {},
  } as unknown as EnvironmentForm;
  return renderToStaticMarkup(
    <MantineProvider>
      <EnvironmentGeneralSection form={form} mode={mode} locked={locked} />
    </MantineProvider>,
  );
};

describe('EnvironmentGeneralSection', () => {
  it("tells the name's rule under the field while it is typed, before any submit", () => {
    const html = render('st');
    expect(stageMessages.nameRule).toBe('3 to 20 characters, letters and digits only');
    const input = html.indexOf('value="st"');
    const rule = html.indexOf(stageMessages.nameRule);
    expect(input).toBeGreaterThan(-1);
    expect(rule).toBeGreaterThan(input);
  });

  it('tells no rule for a name that cannot change (a deployed environment being edited)', () => {
    expect(render('staging', 'edit', true)).not.toContain(stageMessages.nameRule);
    expect(render('staging', 'edit', false)).toContain(stageMessages.nameRule);
  });
});
