import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { parseComponentSchemaText, ENVIRONMENT_TEMPLATES, VENDOR_COMPONENT_NAMES } from '@gantry/contracts';
import { parseTemplate } from '../../integrations/cloudformation/index.js';
import { DEFAULT_VENDOR_ROOT } from './components.module.js';

const folders = fs.readdirSync(DEFAULT_VENDOR_ROOT).filter((f) => fs.statSync(path.join(DEFAULT_VENDOR_ROOT, f)).isDirectory());
const cloudformation = folders.filter(
  (f) => JSON.parse(fs.readFileSync(path.join(DEFAULT_VENDOR_ROOT, f, 'component.json'), 'utf8')).infrastructureAsCodeTool === 'cloudformation',
);

describe('vendor CloudFormation components', () => {
  it('ship the four components the environment templates use', () => {
    const names = cloudformation.map((f) => JSON.parse(fs.readFileSync(path.join(DEFAULT_VENDOR_ROOT, f, 'component.json'), 'utf8')).name).sort();
    expect(names).toEqual(Object.values(VENDOR_COMPONENT_NAMES).sort());
  });

  it.each(cloudformation)("%s: the schema's inputs and outputs are the template's Parameters and Outputs", (folder) => {
    const dir = path.join(DEFAULT_VENDOR_ROOT, folder);
    const meta = JSON.parse(fs.readFileSync(path.join(dir, 'component.json'), 'utf8'));
    // strict: CloudFormation's short forms known, any other tag an error
    const doc = parseTemplate(fs.readFileSync(path.join(dir, meta.template), 'utf8')) as any;
    expect(doc.AWSTemplateFormatVersion).toBe('2010-09-09');
    const { schema, errors } = parseComponentSchemaText(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8'));
    expect(errors).toEqual([]);
    expect(schema!.inputs.map((i) => i.name).sort()).toEqual(Object.keys(doc.Parameters ?? {}).sort());
    expect(schema!.outputs.map((o) => o.name).sort()).toEqual(Object.keys(doc.Outputs).sort());
    // a parameter with no default is required in the schema too; defaults and choices agree
    for (const [name, p] of Object.entries(doc.Parameters ?? {}) as [string, { Default?: unknown; AllowedValues?: unknown[] }][]) {
      const input = schema!.inputs.find((i) => i.name === name)!;
      expect(input.required, `${folder}.${name}`).toBe(p.Default === undefined);
      if (p.Default !== undefined) expect(String(input.default), `${folder}.${name} default`).toBe(String(p.Default));
      expect(input.enum?.map(String) ?? null, `${folder}.${name} choices`).toEqual(p.AllowedValues?.map(String) ?? null);
    }
    // a conditional output may not exist, and the parent stack reads every output it re-exports
    expect(
      Object.entries(doc.Outputs)
        .filter(([, o]) => (o as { Condition?: string }).Condition)
        .map(([k]) => k),
    ).toEqual([]);
  });

  it("every reference of the templates names an output its resource's component has", () => {
    const outputsOf = new Map(
      cloudformation.map((f) => {
        const dir = path.join(DEFAULT_VENDOR_ROOT, f);
        return [
          JSON.parse(fs.readFileSync(path.join(dir, 'component.json'), 'utf8')).name,
          parseComponentSchemaText(fs.readFileSync(path.join(dir, 'schema.json'), 'utf8')).schema!,
        ];
      }),
    );
    for (const template of Object.values(ENVIRONMENT_TEMPLATES)) {
      const resources = template.resources({ ImageUrl: 'strapi/strapi:4', Domain: 'cms.example.com' });
      for (const r of resources) {
        const schema = outputsOf.get(r.componentName)!;
        for (const c of r.configurations) {
          expect(
            schema.inputs.map((i) => i.name),
            `${r.name}.${c.key}`,
          ).toContain(c.key);
          if (!c.reference) continue;
          const [res, out] = String(c.value).split('.');
          const target = resources.find((x) => x.name === res)!;
          expect(
            outputsOf.get(target.componentName)!.outputs.map((o) => o.name),
            String(c.value),
          ).toContain(out);
        }
      }
    }
  });
});
