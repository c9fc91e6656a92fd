import type { Parameter } from '@aws-sdk/client-cloudformation';
import { parseTemplate, unconditionalOutputs, TemplateError } from './child-template.js';

export interface NestedResource {
  /** The resource name, also the nested stack's logical id (a letter, then letters and digits). */
  name: string;
  templateBody: string;
  /** Literal parameters, and references `resource.Output` to another resource's output. */
  parameters: { key: string; value: string | number | boolean; reference: boolean; sensitive?: boolean }[];
}

export interface ParentTemplate {
  body: string;
  /** Values of the parent's own (NoEcho) parameters: the sensitive literals, kept out of the template. */
  parameters: Parameter[];
  /** The parent's output key → which resource output it re-exports. */
  outputs: Record<string, { resource: string; output: string }>;
}

const LOGICAL_ID = /^[A-Za-z][A-Za-z0-9]*$/;

/** Logical ids are alphanumeric only, so `vpc`+`IdX` and `vpcId`+`X` could meet: number the later one. */
function uniqueId(base: string, used: Set<string>) {
  let id = base;
  for (let n = 2; used.has(id); n++) id = `${base}${n}`;
  used.add(id);
  return id;
}

function checkNoCycle(deps: Map<string, Set<string>>) {
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (n: string, trail: string[]) => {
    if (state.get(n) === 'done') return;
    if (state.get(n) === 'visiting')
      throw new TemplateError(`The resources refer to each other in a cycle: ${[...trail.slice(trail.indexOf(n)), n].join(' → ')}`);
    state.set(n, 'visiting');
    for (const d of deps.get(n) ?? []) visit(d, [...trail, n]);
    state.set(n, 'done');
  };
  for (const n of deps.keys()) visit(n, []);
}

/**
 * The environment's stack: one `AWS::CloudFormation::Stack` per resource; a reference `res.Out`
 * becomes `Fn::GetAtt [res, Outputs.Out]`; every (unconditional) child output is re-exported as
 * `<res><Out>` with the description `res.Out`, so one DescribeStacks gives all outputs.
 */
export function buildParentTemplate(
  resources: NestedResource[],
  o: { templateUrl: (name: string) => string; tags: Record<string, string>; description?: string },
): ParentTemplate {
  const children = new Map<string, string[] | null>();
  for (const r of resources) {
    if (!LOGICAL_ID.test(r.name)) throw new TemplateError(`${r.name} cannot name a nested stack: a letter, then letters and digits`);
    if (children.has(r.name)) throw new TemplateError(`Two resources are named ${r.name}`);
    children.set(r.name, unconditionalOutputs(parseTemplate(r.templateBody, `template of ${r.name}`)));
  }
  const used = new Set(resources.map((r) => r.name));
  const deps = new Map<string, Set<string>>();
  const Parameters: Record<string, unknown> = {};
  const values: Parameter[] = [];
  const Resources: Record<string, unknown> = {};
  const Outputs: Record<string, unknown> = {};
  const outputs: ParentTemplate['outputs'] = {};

  for (const r of resources) {
    const params: Record<string, unknown> = {};
    deps.set(r.name, new Set());
    for (const p of r.parameters) {
      if (p.reference) {
        const [res, out, ...rest] = String(p.value).split('.');
        if (!res || !out || rest.length || !children.has(res))
          throw new TemplateError(`${r.name}.${p.key} refers to ${p.value}, which is no resource output of this environment`);
        const known = children.get(res);
        if (known && !known.includes(out)) throw new TemplateError(`${r.name}.${p.key} refers to ${p.value}, but ${res} has no (unconditional) output ${out}`);
        params[p.key] = { 'Fn::GetAtt': [res, `Outputs.${out}`] };
        deps.get(r.name)!.add(res);
      } else if (p.sensitive) {
        const id = uniqueId(`${r.name}${p.key.replace(/[^A-Za-z0-9]/g, '')}`, used);
        Parameters[id] = { Type: 'String', NoEcho: true, Description: `${r.name}.${p.key}` };
        values.push({ ParameterKey: id, ParameterValue: String(p.value) });
        params[p.key] = { Ref: id };
      } else params[p.key] = String(p.value);
    }
    Resources[r.name] = {
      Type: 'AWS::CloudFormation::Stack',
      Properties: { TemplateURL: o.templateUrl(r.name), Parameters: params, Tags: Object.entries(o.tags).map(([Key, Value]) => ({ Key, Value })) },
    };
  }
  checkNoCycle(deps);
  for (const r of resources) {
    for (const out of children.get(r.name) ?? []) {
      const id = uniqueId(`${r.name}${out}`, used);
      Outputs[id] = { Description: `${r.name}.${out}`, Value: { 'Fn::GetAtt': [r.name, `Outputs.${out}`] } };
      outputs[id] = { resource: r.name, output: out };
    }
  }
  const doc = {
    AWSTemplateFormatVersion: '2010-09-09',
    Description: o.description ?? 'Gantry environment',
    ...(values.length ? { Parameters } : {}),
    Resources,
    ...(Object.keys(Outputs).length ? { Outputs } : {}),
  };
  return { body: JSON.stringify(doc, null, 2), parameters: values, outputs };
}
