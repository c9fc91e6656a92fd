import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import extractZip from 'extract-zip';
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { createFileArtifactStore } from '../../platform/artifacts.js';
import { terraformBuild, cfnComponent, checkTemplate, type ComponentManifest } from './component-packaging.js';
import type { StepContext } from './step-handlers.js';
import { stepSegment } from './step-segment.js';
import { testTempDir } from '@gantry/test-support/temp-dir';

const SCHEMA = JSON.stringify({
  properties: {
    inputs: { properties: { name: { type: 'string', description: 'A name' }, size: { type: 'number', default: 1 } }, required: ['name'] },
    outputs: { properties: { id: { type: 'string' } } },
  },
});

let root: string;
let added: { kind: string; name: string; location: string; files: number; step: string }[];
const artifactsDir = () => path.join(root, 'artifacts');

function context(type: 'terraform-build' | 'cfn-component', config: Record<string, unknown>, files: Record<string, string>, workDir = '/'): StepContext {
  const workspace = path.join(root, 'ws');
  for (const [f, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(workspace, 'src', f)), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'src', f), text);
  }
  return {
    build: { id: 'b1' },
    pipeline: { id: 'p1', workDir },
    step: { name: 'Package it', stage: null, type, commands: [], config },
    workspace,
    signal: new AbortController().signal,
    log: () => undefined,
    env: {},
    resolve: (s: string) => s.replace('{{GANTRY_BRANCH}}', 'main'),
    artifacts: createFileArtifactStore(artifactsDir()),
    store: {
      addArtifact: async (a: (typeof added)[number]) => {
        added.push(a);
        return a;
      },
    },
  } as unknown as StepContext;
}

const manifest = () => JSON.parse(fs.readFileSync(path.join(artifactsDir(), added.find((a) => a.kind === 'json')!.location), 'utf8')) as ComponentManifest;
/** The files inside the component zip (unpacked with the same library the server uses). */
const zipEntries = async () => {
  const dest = testTempDir('zip-entries-');
  await extractZip(path.join(artifactsDir(), added.find((a) => a.kind === 'files')!.location), { dir: dest });
  return (fs.readdirSync(dest, { recursive: true }) as string[]).filter((e) => fs.statSync(path.join(dest, e)).isFile()).sort();
};

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-pack-'));
  added = [];
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('terraform-build', () => {
  it('packages a module with its schema and README as the component artifacts', async () => {
    await terraformBuild(
      context(
        'terraform-build',
        { terraform_dir: 'infra' },
        {
          'infra/main.tf': 'resource "terraform_data" "x" {}',
          'infra/variables.tf': 'variable "name" {}',
          'infra/schema.json': SCHEMA,
          'infra/README.md': '# Hello',
          'infra/sub/extra.tf': '',
          'infra/.terraform/providers/x': 'junk',
          'infra/terraform.tfstate': '{}',
          'other.txt': 'outside',
        },
      ),
    );
    expect(added.map((a) => [a.kind, a.name, a.step])).toEqual([
      ['files', 'component', 'Package it'],
      ['json', 'component.json', 'Package it'],
    ]);
    expect(added[0]!.location).toBe(`pipelines/p1/b1/${stepSegment('Package it')}/component.zip`);
    expect(await zipEntries()).toEqual(['README.md', 'main.tf', 'schema.json', 'sub/extra.tf', 'variables.tf']);
    expect(manifest()).toMatchObject({ format: 'gantry-component/1', tool: 'terraform', template: null, readme: '# Hello', schema: JSON.parse(SCHEMA) });
  });

  it('uses the pipeline work dir and "." by default; README is optional', async () => {
    await terraformBuild(context('terraform-build', { terraform_dir: '.' }, { 'mod/main.tf': '', 'mod/schema.json': SCHEMA }, '/mod'));
    expect(await zipEntries()).toEqual(['main.tf', 'schema.json']);
    expect(manifest().readme).toBeNull();
  });

  it.each([
    [{ 'infra/main.tf': '' }, 'schema.json was not found in infra: a component needs the schema of its inputs and outputs'],
    [{ 'infra/main.tf': '', 'infra/schema.json': '{ nope' }, /^schema.json is not valid JSON: /],
    [
      { 'infra/main.tf': '', 'infra/schema.json': '{"properties":{"inputs":{"properties":{"a":{"type":"text"}}}}}' },
      /^schema.json in infra is invalid: properties.inputs.properties.a.type must be one of/,
    ],
    [{ 'infra/schema.json': SCHEMA, 'infra/notes.txt': '' }, 'No Terraform files (*.tf) were found in infra'],
    [{ 'README.md': '' }, 'The Terraform directory infra does not exist in the repository'],
  ])('fails clearly: %j', async (files, message) => {
    await expect(terraformBuild(context('terraform-build', { terraform_dir: 'infra' }, files))).rejects.toThrow(message);
    expect(added).toEqual([]);
  });

  it('refuses a directory outside the repository', async () => {
    await expect(terraformBuild(context('terraform-build', { terraform_dir: '../..' }, { 'main.tf': '' }))).rejects.toThrow(
      'The terraform_dir ../.. points outside the repository',
    );
  });
});

describe('cfn-component', () => {
  const TEMPLATE = 'AWSTemplateFormatVersion: "2010-09-09"\nResources:\n  Bucket:\n    Type: AWS::S3::Bucket\n    Properties:\n      BucketName: !Ref Name\n';

  it('packages the template with the schema beside it', async () => {
    await cfnComponent(
      context(
        'cfn-component',
        { template: 'cfn/stack.yaml' },
        { 'cfn/stack.yaml': TEMPLATE, 'cfn/schema.json': SCHEMA, 'cfn/README.md': 'r', 'cfn/other.yaml': 'x' },
      ),
    );
    expect(await zipEntries()).toEqual(['README.md', 'schema.json', 'stack.yaml']);
    expect(manifest()).toMatchObject({ tool: 'cloudformation', template: 'stack.yaml', readme: 'r' });
  });

  it.each([
    [{ 'cfn/schema.json': SCHEMA }, 'The CloudFormation template cfn/stack.yaml does not exist in the repository'],
    [{ 'cfn/stack.yaml': TEMPLATE }, 'schema.json was not found in cfn'],
    [{ 'cfn/stack.yaml': 'Parameters: {}\n', 'cfn/schema.json': SCHEMA }, 'The template cfn/stack.yaml has no Resources section'],
  ])('fails clearly: %j', async (files, message) => {
    await expect(cfnComponent(context('cfn-component', { template: 'cfn/stack.yaml' }, files))).rejects.toThrow(message);
  });

  it('checks JSON templates', () => {
    expect(() => checkTemplate('{"Resources":{"A":{}}}', 't.json')).not.toThrow();
    expect(() => checkTemplate('{"Resources":', 't.json')).toThrow(/^The template t.json is not valid JSON/);
    expect(() => checkTemplate('{}', 't.json')).toThrow('The template t.json has no Resources section');
  });
});
