import { describe, it, expect } from 'vitest';
import {
  ComponentBody,
  UpdateComponentBody,
  ShareComponentBody,
  parseComponentSchema,
  parseComponentSchemaText,
  artifactStepsOf,
  artifactStepProblem,
  componentMatches,
  truncateDescription,
  checkInputValues,
  versionLabel,
  componentMessages,
} from './components.js';
import { validatePipelineSpec } from './pipeline-spec.js';
import { fieldErrors } from './common.js';

const valid = {
  name: 'Static site',
  type: 'Storage',
  description: 'A bucket',
  cloudProvider: 'aws',
  infrastructureAsCodeTool: 'terraform',
  pipelineId: '6f1c1c1e-1111-4222-8333-444455556666',
  artifactStep: 'Package',
};

describe('component form', () => {
  it('accepts a valid body and defaults the IaC tool to terraform', () => {
    const { infrastructureAsCodeTool: _, ...noTool } = valid;
    expect(ComponentBody.parse(noTool).infrastructureAsCodeTool).toBe('terraform');
    expect(ComponentBody.parse({ ...valid, type: 'virtual-machine' }).type).toBe('virtual-machine');
  });

  it.each([
    [{ name: 'ab' }, 'name', 'Component name must be at least 3 characters'],
    [{ name: 'x'.repeat(31) }, 'name', 'Component name must be at most 30 characters'],
    [{ type: 'Queue' }, 'type', 'Please select a component type'],
    [{ description: '  ' }, 'description', 'Description is required'],
    [{ cloudProvider: 'ibm' }, 'cloudProvider', 'Please select a cloud provider'],
    [{ pipelineId: '' }, 'pipelineId', 'Please select a pipeline'],
    [{ artifactStep: '' }, 'artifactStep', 'Artifact step is required'],
    [{ cloudProvider: 'google', infrastructureAsCodeTool: 'cloudformation' }, 'infrastructureAsCodeTool', 'Cloudformation is available for aws only'],
  ])('refuses %j', (patch, field, message) => {
    const r = ComponentBody.safeParse({ ...valid, ...patch });
    expect(r.success).toBe(false);
    expect(fieldErrors(r.error!)[field]).toEqual([message]);
  });

  it('ignores the name on update', () => {
    expect(UpdateComponentBody.parse({ ...valid, name: 'renamed' })).not.toHaveProperty('name');
  });

  it('takes the grantee as projectId or granteeId', () => {
    expect(ShareComponentBody.safeParse({ projectId: valid.pipelineId }).success).toBe(true);
    expect(ShareComponentBody.safeParse({ granteeId: valid.pipelineId }).success).toBe(true);
    expect(ShareComponentBody.safeParse({}).success).toBe(false);
  });
});

describe('schema.json', () => {
  const good = {
    properties: {
      inputs: {
        properties: {
          bucket_name: { type: 'string', description: 'Bucket name', default: 'site' },
          tier: { enum: ['dev', 'prod'], default: 'dev' },
          api_key: { type: 'string', sensitive: true },
          replicas: { type: 'number' },
        },
        required: ['bucket_name', 'api_key'],
      },
      outputs: { properties: { url: { type: 'string', description: 'Site URL' }, secret: { sensitive: true } } },
    },
  };

  it('reads inputs and outputs in file order with defaults filled in', () => {
    const { errors, schema } = parseComponentSchema(good);
    expect(errors).toEqual([]);
    expect(schema!.inputs).toEqual([
      { name: 'bucket_name', type: 'string', default: 'site', enum: null, description: 'Bucket name', sensitive: false, required: true },
      { name: 'tier', type: 'string', default: 'dev', enum: ['dev', 'prod'], description: null, sensitive: false, required: false },
      { name: 'api_key', type: 'string', enum: null, description: null, sensitive: true, required: true },
      { name: 'replicas', type: 'number', enum: null, description: null, sensitive: false, required: false },
    ]);
    expect(schema!.outputs).toEqual([
      { name: 'url', type: 'string', description: 'Site URL', sensitive: false },
      { name: 'secret', type: 'string', description: null, sensitive: true },
    ]);
  });

  it('accepts a schema without inputs or outputs', () => {
    expect(parseComponentSchema({ properties: {} })).toEqual({ errors: [], schema: { inputs: [], outputs: [] } });
  });

  it.each([
    [[], 'The schema must be a JSON object'],
    [{}, 'The schema needs a "properties" object with "inputs" and "outputs"'],
    [{ properties: { inputs: [] } }, 'properties.inputs must be an object'],
    [{ properties: { inputs: { properties: { a: {} }, required: 'a' } } }, 'properties.inputs.required must be a list of input names'],
    [{ properties: { inputs: { properties: { a: {} }, required: ['b'] } } }, 'properties.inputs.required names "b", which is not an input'],
    [
      { properties: { inputs: { properties: { a: { type: 'text' } } } } },
      'properties.inputs.properties.a.type must be one of string, number, integer, boolean, bool, array, list, set, object, map, any',
    ],
    [{ properties: { inputs: { properties: { a: { enum: [] } } } } }, 'properties.inputs.properties.a.enum must be a non-empty list'],
    [{ properties: { inputs: { properties: { a: { enum: ['x'], default: 'y' } } } } }, 'properties.inputs.properties.a.default must be one of its enum values'],
    [{ properties: { inputs: { properties: { a: { sensitive: 'yes' } } } } }, 'properties.inputs.properties.a.sensitive must be true or false'],
    [
      { properties: { inputs: { properties: { '1a': {} } } } },
      'properties.inputs.properties: "1a" is not a valid name (letters, digits, _ and -, not starting with a digit)',
    ],
    [{ properties: { outputs: { properties: { o: 'string' } } } }, 'properties.outputs.properties.o must be an object'],
  ])('refuses %j', (doc, message) => {
    const r = parseComponentSchema(doc);
    expect(r.schema).toBeNull();
    expect(r.errors).toContain(message);
  });

  it('reports invalid JSON text', () => {
    const r = parseComponentSchemaText('{ "properties": ');
    expect(r.schema).toBeNull();
    expect(r.errors[0]).toMatch(/^schema.json is not valid JSON: /);
    expect(parseComponentSchemaText(JSON.stringify(good)).schema!.inputs).toHaveLength(4);
  });
});

describe('artifact steps of a pipeline spec', () => {
  const spec = validatePipelineSpec(`steps:
  Clone:
    type: git-clone
  Module:
    type: terraform-build
    terraform_dir: infra
  Stack:
    type: cfn-component
    template: stack.yaml
  Test:
    commands: [echo hi]
`).spec;

  it('lists the terraform-build and cfn-component steps', () => {
    expect(artifactStepsOf(spec)).toEqual([
      { name: 'Module', type: 'terraform-build', infrastructureAsCodeTool: 'terraform' },
      { name: 'Stack', type: 'cfn-component', infrastructureAsCodeTool: 'cloudformation' },
    ]);
    expect(artifactStepsOf(null)).toEqual([]);
  });

  it.each([
    ['Module', 'terraform', null],
    ['Stack', 'cloudformation', null],
    ['Stack', 'terraform', 'The step Stack builds a Cloudformation component; choose cloudformation as the infrastructure-as-code tool'],
    ['Test', 'terraform', 'The step Test is not an artifact step (terraform-build or cfn-component)'],
    ['Nope', 'terraform', 'The pipeline has no step named Nope'],
  ] as const)('%s with %s: %s', (step, tool, problem) => expect(artifactStepProblem(spec, step, tool)).toBe(problem));

  it('says when a pipeline has no artifact step', () => {
    const plain = validatePipelineSpec('steps:\n  Test:\n    commands: [echo]\n').spec;
    expect(artifactStepProblem(plain, 'Test', 'terraform')).toBe(componentMessages.noArtifactStep);
  });
});

describe('list helpers', () => {
  const c = { name: 'Web bucket', type: 'Storage', description: 'Holds the site', infrastructureAsCodeTool: 'terraform', cloudProvider: 'google' } as const;
  it.each([
    ['', true],
    ['BUCKET', true],
    ['storage', true],
    ['holds', true],
    ['Terraform', true],
    ['google cloud', true],
    ['azure', false],
  ])('search %j → %s', (term, expected) => expect(componentMatches(c, term)).toBe(expected));
  it('cuts descriptions on a word boundary', () => {
    expect(truncateDescription('short')).toBe('short');
    const long = 'word '.repeat(60);
    const cut = truncateDescription(long);
    expect(cut.endsWith('word...')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(203);
  });
  it('shows versions as 7 characters', () => expect(versionLabel('0123456789abcdef')).toBe('0123456'));
});

describe('resource inputs against the schema', () => {
  const inputs = parseComponentSchema({
    properties: { inputs: { properties: { name: {}, tier: { enum: ['dev', 'prod'] }, size: { default: 1 } }, required: ['name', 'size'] } },
  }).schema!.inputs;
  it.each([
    [[{ key: 'name', value: 'x' }], {}],
    [[], { name: 'name is required' }],
    [
      [
        { key: 'name', value: 'other.url', reference: true },
        { key: 'tier', value: 'qa' },
      ],
      { tier: 'tier must be one of dev, prod' },
    ],
    [
      [
        { key: 'name', value: 'x' },
        { key: 'extra', value: '1' },
      ],
      { extra: 'extra is not an input of this component' },
    ],
  ])('%j → %j', (values, expected) => expect(checkInputValues(inputs, values)).toEqual(expected));
});
