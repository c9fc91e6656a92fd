import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { generateRootModule, RootModuleError, splitRootOutputName, parseReference, type RootModuleSpec } from './root-module.js';
import { readModuleInterface } from './module-interface.js';
import { outputsByResource } from './outputs.js';
import { summarizePlan } from './terraform-runner.js';
import { testTempDir } from '@gantry/test-support/temp-dir';

const main = (spec: RootModuleSpec) => JSON.parse(generateRootModule(spec).files['main.tf.json']);
const problems = (spec: RootModuleSpec): string[] => {
  try {
    generateRootModule(spec);
  } catch (err) {
    expect(err).toBeInstanceOf(RootModuleError);
    return (err as RootModuleError).problems;
  }
  throw new Error('expected a RootModuleError');
};

describe('generateRootModule', () => {
  it('writes one module block per resource, literals as JSON values and references as module outputs', () => {
    const doc = main({
      resources: [
        { name: 'vpc', source: '/c/vpc', inputs: { cidr: { literal: '10.0.0.0/16' }, azs: { literal: 2 }, tags: { literal: { team: 'a', on: true } } } },
        { name: 'app', source: '/c/app', inputs: { vpc_id: { reference: 'vpc.id' }, skip: { literal: undefined }, nothing: { literal: null } } },
      ],
    });
    expect(doc.module).toEqual({
      vpc: { source: '/c/vpc', cidr: '10.0.0.0/16', azs: 2, tags: { team: 'a', on: true } },
      app: { source: '/c/app', vpc_id: '${module.vpc.id}', nothing: null },
    });
    expect(doc.output).toBeUndefined();
    expect(doc.variable).toBeUndefined();
  });

  it('escapes template sequences in literal strings and keys, so they reach the module verbatim', () => {
    const doc = main({
      resources: [{ name: 'a', source: '/c/a', inputs: { s: { literal: 'x ${var.y} %{ if z }' }, o: { literal: { 'k${1}': ['${2}', 3] } } } }],
    });
    expect(doc.module.a.s).toBe('x $${var.y} %%{ if z }');
    expect(doc.module.a.o).toEqual({ 'k$${1}': ['$${2}', 3] });
  });

  it('re-exports every declared module output as <resource>__<output>, sensitive ones staying sensitive', () => {
    const doc = main({
      resources: [
        { name: 'db', source: '/c/db', inputs: {} },
        { name: 'app', source: '/c/app', inputs: { url: { reference: 'db.url' } } },
      ],
      outputs: { db: [{ name: 'url' }, { name: 'password', sensitive: true }], app: [{ name: 'host' }] },
    });
    expect(doc.output).toEqual({
      db__url: { value: '${module.db.url}' },
      db__password: { value: '${module.db.password}', sensitive: true },
      app__host: { value: '${module.app.host}' },
    });
  });

  it('passes sensitive literal inputs through TF_VAR_ environment values, never into the file', () => {
    const root = generateRootModule({
      resources: [
        {
          name: 'db',
          source: '/c/db',
          inputs: { password: { literal: 'hunter2-secret' }, creds: { literal: { user: 'u', key: 'k3y-value' } }, size: { literal: 5 } },
          sensitiveInputs: ['password', 'creds'],
        },
      ],
    });
    const text = root.files['main.tf.json'];
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toContain('k3y-value');
    const doc = JSON.parse(text);
    expect(doc.variable).toEqual({ db__password: { type: 'string', sensitive: true }, db__creds: { type: 'string', sensitive: true } });
    expect(doc.module.db).toEqual({ source: '/c/db', password: '${var.db__password}', creds: '${jsondecode(var.db__creds)}', size: 5 });
    expect(root.env).toEqual({ TF_VAR_db__password: 'hunter2-secret', TF_VAR_db__creds: '{"user":"u","key":"k3y-value"}' });
    expect(root.secrets).toEqual(expect.arrayContaining(['hunter2-secret', 'k3y-value']));
  });

  it('rejects names that are not Terraform identifiers, reserved inputs and bad sources', () => {
    const p = problems({
      resources: [
        { name: '1abc', source: '/c/a', inputs: {} },
        { name: 'has space', source: 'relative/dir', inputs: { 'bad key': { literal: 1 }, count: { literal: 2 } } },
        { name: 'x__y', source: '/c/${x}', inputs: {} },
      ],
    });
    expect(p.join('\n')).toMatch(/"1abc" is not a valid Terraform identifier/);
    expect(p.join('\n')).toMatch(/"has space" is not a valid Terraform identifier/);
    expect(p.join('\n')).toMatch(/must be an absolute path/);
    expect(p.join('\n')).toMatch(/input "bad key": not a valid Terraform identifier/);
    expect(p.join('\n')).toMatch(/"count" is reserved/);
    expect(p.join('\n')).toMatch(/"x__y" must not contain "__"/);
    expect(p.join('\n')).toMatch(/must not contain "\$\{"/);
  });

  it('rejects duplicate resources, unknown referenced resources or outputs and malformed references', () => {
    const p = problems({
      resources: [
        {
          name: 'a',
          source: '/c/a',
          inputs: { x: { reference: 'ghost.id' }, y: { reference: 'b.nope' }, z: { reference: 'b' }, w: { reference: 'b.id.more' } },
        },
        { name: 'a', source: '/c/a', inputs: {} },
        { name: 'b', source: '/c/b', inputs: {} },
      ],
      outputs: { b: [{ name: 'id' }], ghost2: [] },
    });
    expect(p).toEqual(
      expect.arrayContaining([
        'resource name "a" is used twice',
        'resource "a" input "x": references unknown resource "ghost"',
        'resource "a" input "y": resource "b" has no output "nope"',
        'resource "a" input "z": reference "b" must be written resourceName.outputName',
        'resource "a" input "w": reference "b.id.more" must be written resourceName.outputName',
        'outputs are given for unknown resource "ghost2"',
      ]),
    );
  });

  it('finds reference cycles, self-references included, and names the path', () => {
    expect(
      problems({
        resources: [
          { name: 'a', source: '/c', inputs: { x: { reference: 'c.o' } } },
          { name: 'b', source: '/c', inputs: { x: { reference: 'a.o' } } },
          { name: 'c', source: '/c', inputs: { x: { reference: 'b.o' } } },
        ],
      }),
    ).toEqual(['reference cycle: a → c → b → a']);
    expect(problems({ resources: [{ name: 'a', source: '/c', inputs: { x: { reference: 'a.o' } } }] })).toEqual(['reference cycle: a → a']);
    // a diamond is not a cycle
    expect(() =>
      generateRootModule({
        resources: [
          { name: 'a', source: '/c', inputs: {} },
          { name: 'b', source: '/c', inputs: { x: { reference: 'a.o' } } },
          { name: 'c', source: '/c', inputs: { x: { reference: 'a.o' } } },
          { name: 'd', source: '/c', inputs: { x: { reference: 'b.o' }, y: { reference: 'c.o' } } },
        ],
      }),
    ).not.toThrow();
  });

  it('rejects values Terraform cannot take and a sensitive input without a value', () => {
    const p = problems({
      resources: [
        { name: 'a', source: '/c', inputs: { n: { literal: Number.NaN }, f: { literal: () => 1 }, d: { literal: new Date(0) } }, sensitiveInputs: ['missing'] },
      ],
    });
    expect(p.join('\n')).toMatch(/input "n": NaN is not a number/);
    expect(p.join('\n')).toMatch(/input "f": a function value/);
    expect(p.join('\n')).toMatch(/input "d": a object value/);
    expect(p.join('\n')).toMatch(/sensitive input "missing" has no value/);
  });

  it('an empty environment is a valid, empty module', () => {
    expect(main({ resources: [] })).toEqual({});
  });
});

describe('names, outputs and plan helpers', () => {
  it('parses references and root output names', () => {
    expect(parseReference('a.b')).toEqual({ resource: 'a', output: 'b' });
    expect(parseReference('a')).toBeUndefined();
    expect(splitRootOutputName('web__url__x')).toEqual({ resource: 'web', output: 'url__x' });
    expect(splitRootOutputName('plain')).toBeUndefined();
    expect(
      outputsByResource({ web__url: { value: 'u', sensitive: false }, db__pw: { value: 'p', sensitive: true }, other: { value: 1, sensitive: false } }),
    ).toEqual({
      web: { url: { value: 'u', sensitive: false } },
      db: { pw: { value: 'p', sensitive: true } },
    });
    const both = { web__url: { value: 'u', sensitive: false }, db__pw: { value: 'p', sensitive: true } };
    expect(Object.keys(outputsByResource(both, { state: ['module.web.terraform_data.x', 'module.other["k"].y.z'] }))).toEqual(['web']);
  });

  it('counts a plan the way terraform does, replacements in add and destroy', () => {
    const r = summarizePlan([
      { address: 'module.a.terraform_data.x', module_address: 'module.a', change: { actions: ['create'] } },
      { address: 'module.b.terraform_data.x', module_address: 'module.b', change: { actions: ['delete', 'create'] } },
      { address: 'module.c["k"].terraform_data.x', module_address: 'module.c["k"]', change: { actions: ['update'] } },
      { address: 'module.d.terraform_data.x', module_address: 'module.d', change: { actions: ['no-op'] } },
      { address: 'terraform_data.root', change: { actions: ['delete'] } },
    ]);
    expect(r.summary).toEqual({ add: 2, change: 1, destroy: 2, replace: 1 });
    expect(r.changes.map((c) => [c.resource, c.actions.join('+')])).toEqual([
      ['a', 'create'],
      ['b', 'delete+create'],
      ['c', 'update'],
      [undefined, 'delete'],
    ]);
    expect(r.hasChanges).toBe(true);
    expect(summarizePlan([]).hasChanges).toBe(false);
  });
});

describe('readModuleInterface', () => {
  it('reads variables and outputs, with sensitivity, from HCL and JSON files', () => {
    const dir = testTempDir('tf-iface-');
    fs.writeFileSync(
      path.join(dir, 'main.tf'),
      `# output "commented" {}
variable "name" {
  type = string
  description = "an output \\"quoted\\" { brace"
}
variable "pw" {
  type      = string
  sensitive = true
}
resource "terraform_data" "x" {
  input = <<-EOT
    output "not_real" { sensitive = true }
  EOT
  triggers_replace = { sensitive = true }
}
output "id" {
  value = "\${terraform_data.x.id}-\${"}"}"
}
/* output "blocked" { } */
output "token" {
  value     = var.pw
  sensitive = true
}
`,
    );
    fs.writeFileSync(path.join(dir, 'extra.tf.json'), JSON.stringify({ output: { json_out: { value: 1, sensitive: true } }, variable: { region: {} } }));
    fs.writeFileSync(path.join(dir, 'ignored_override.tf'), 'output "override_only" { value = 1 }');
    fs.writeFileSync(path.join(dir, 'README.md'), 'output "no" {}');
    expect(readModuleInterface(dir)).toEqual({
      variables: [
        { name: 'name', sensitive: false },
        { name: 'pw', sensitive: true },
        { name: 'region', sensitive: false },
      ],
      outputs: [
        { name: 'id', sensitive: false },
        { name: 'json_out', sensitive: true },
        { name: 'token', sensitive: true },
      ],
    });
  });
});
