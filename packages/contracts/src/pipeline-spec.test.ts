import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPEC_TEMPLATE,
  STEP_CATALOGUE,
  STEP_TYPES,
  executionPlan,
  resolvePlaceholders,
  searchStepCatalogue,
  validatePipelineSpec,
  type ParsedSpec,
} from './pipeline-spec.js';

/** Strips the common indentation so specs can be written inline. */
function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((acc, s, i) => acc + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = raw
    .replace(/^\n/, '')
    .replace(/\n\s*$/, '')
    .split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => l.match(/^ */)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n') + '\n';
}

const REQUIRED = (prop: string, path: string) => `Should have required property '${prop}' Path: ${path}`;
const INVALID_PROP = (prop: string, path: string) => `Invalid property '${prop}' Path: ${path}`;

describe('validatePipelineSpec: errors', () => {
  const cases: { name: string; text: string; errors: string[] }[] = [
    // Not a YAML object.
    { name: 'empty text', text: '', errors: ['Not a valid Yaml File'] },
    { name: 'only a comment', text: '# nothing\n', errors: ['Not a valid Yaml File'] },
    { name: 'empty object', text: '{}\n', errors: ['Not a valid Yaml File'] },
    { name: 'a scalar', text: 'just text\n', errors: ['Not a valid Yaml File'] },
    { name: 'a list', text: '- a\n- b\n', errors: ['Not a valid Yaml File'] },
    { name: 'broken YAML', text: 'steps: [a, b\n', errors: ['Not a valid Yaml File'] },
    { name: 'duplicate keys', text: 'steps:\n  A:\n    commands: [ls]\n  A:\n    commands: [ls]\n', errors: ['Not a valid Yaml File'] },
    { name: 'several documents', text: 'steps: {}\n---\nsteps: {}\n', errors: ['Not a valid Yaml File'] },

    // Root schema.
    { name: 'missing steps', text: 'runtime:\n  computeType: SMALL\n', errors: [REQUIRED('steps', 'Root level')] },
    {
      name: 'unknown root property',
      text: yaml`
        foo: 1
        steps:
          Build:
            commands: [ls]
      `,
      errors: [INVALID_PROP('foo', 'Root level')],
    },
    { name: 'empty steps map', text: 'steps: {}\n', errors: ['Object does not have enough properties Path: steps'] },
    { name: 'steps as a list', text: 'steps:\n  - commands: [ls]\n', errors: ['Should be object Path: steps'] },
    {
      name: 'stages alone are removed before the root check',
      text: 'stages:\n  - build\n',
      errors: [REQUIRED('steps', 'Root level'), 'The stage build is not used in any step'],
    },

    // Runtime.
    {
      name: 'runtime package other than nodejs/java',
      text: yaml`
        runtime:
          packages:
            python: 3.11
        steps:
          Build:
            commands: [ls]
      `,
      errors: ['Runtime is invalid. Should be one of: nodejs, java'],
    },
    {
      name: 'step runtime package other than nodejs/java',
      text: yaml`
        steps:
          Build:
            runtime:
              packages:
                ruby: 3
            commands: [ls]
      `,
      errors: ['Runtime is invalid on the step Build. Should be one of: nodejs, java'],
    },
    {
      name: 'compute type not in the enum',
      text: yaml`
        runtime:
          computeType: HUGE
        steps:
          Build:
            commands: [ls]
      `,
      errors: ['Property value is invalid. Should be SMALL, MEDIUM, LARGE, 2XLARGE Path: runtime.computeType'],
    },
    {
      name: 'empty runtime packages',
      text: yaml`
        runtime:
          packages: {}
        steps:
          Build:
            commands: [ls]
      `,
      errors: ['Object does not have enough properties Path: runtime.packages'],
    },
    {
      name: 'unknown runtime property',
      text: yaml`
        runtime:
          memory: 4
        steps:
          Build:
            commands: [ls]
      `,
      errors: [INVALID_PROP('memory', 'runtime')],
    },
    {
      name: 'package version neither string nor number',
      text: yaml`
        runtime:
          packages:
            nodejs: [20]
        steps:
          Build:
            commands: [ls]
      `,
      errors: ['Should be string or number Path: runtime.packages.nodejs'],
    },

    // Step names.
    {
      name: 'numeric step name',
      text: yaml`
        steps:
          1:
            commands: [ls]
      `,
      errors: ['The step name 1 should be a string'],
    },
    {
      name: 'quoted numeric step name',
      text: yaml`
        steps:
          "2.5":
            commands: [ls]
      `,
      errors: ['The step name 2.5 should be a string'],
    },
    {
      name: 'two keys giving the same name',
      text: yaml`
        steps:
          true:
            commands: [ls]
          "true":
            commands: [ls]
      `,
      errors: ['The step name true is used more than once'],
    },

    // Stages.
    {
      name: 'step without stage when stages are listed',
      text: yaml`
        stages: [build]
        steps:
          Clone:
            type: git-clone
          Build:
            stage: build
            commands: [ls]
      `,
      errors: ['Step Clone is missing the stage property. If stages are defined, all steps must have a stage'],
    },
    {
      name: 'stage that is not listed',
      text: yaml`
        stages: [build]
        steps:
          Build:
            stage: build
            commands: [ls]
          Test:
            stage: test
            commands: [ls]
      `,
      errors: ['The stage test on the step Test does not exist'],
    },
    {
      name: 'stage that is not a string',
      text: yaml`
        stages: [build]
        steps:
          Build:
            stage: build
            commands: [ls]
          Test:
            stage: 7
            commands: [ls]
      `,
      errors: ['The stage 7 on the step Test should be a string'],
    },
    {
      name: 'stage that is not a string, without stages',
      text: yaml`
        steps:
          Build:
            stage: [a]
            commands: [ls]
      `,
      errors: ['The stage ["a"] on the step Build should be a string'],
    },
    {
      name: 'listed stage used by no step',
      text: yaml`
        stages: [clone, build, deploy]
        steps:
          Clone:
            stage: clone
            type: git-clone
          Build:
            stage: build
            commands: [ls]
      `,
      errors: ['The stage deploy is not used in any step'],
    },
    {
      name: 'stage names must be strings',
      text: yaml`
        stages: [build, 3]
        steps:
          Build:
            stage: build
            commands: [ls]
      `,
      errors: ['Should be string Path: stages[1]'],
    },
    {
      name: 'empty stages list',
      text: yaml`
        stages: []
        steps:
          Build:
            commands: [ls]
      `,
      errors: ['Array does not have enough items Path: stages'],
    },
    {
      name: 'duplicate stage names',
      text: yaml`
        stages: [build, build]
        steps:
          Build:
            stage: build
            commands: [ls]
      `,
      errors: ['Should not have duplicate items Path: stages'],
    },
    {
      name: 'stages not a list (steps are not checked against it)',
      text: yaml`
        stages: build
        steps:
          Build:
            stage: build
            commands: [ls]
      `,
      errors: ['Should be array Path: stages'],
    },

    // Step types.
    {
      name: 'unknown type',
      text: yaml`
        steps:
          Lint:
            type: eslint
      `,
      errors: ['Invalid "type" value on the step Lint'],
    },
    {
      name: 'a type spelled differently is not a type ("Build", not "build")',
      text: yaml`
        steps:
          Build:
            type: Build
            commands: [ls]
      `,
      errors: ['Invalid "type" value on the step Build'],
    },
    {
      name: 'step with neither type nor build properties',
      text: yaml`
        steps:
          Nothing:
            stage_name: x
      `,
      errors: ['The step Nothing is invalid'],
    },
    {
      name: 'step that is not a map',
      text: yaml`
        steps:
          Empty:
          Text: hello
      `,
      errors: ['The step Empty is invalid', 'The step Text is invalid'],
    },

    // Typed step schemas.
    {
      name: 'git-clone depth not an integer',
      text: 'steps:\n  Clone:\n    type: git-clone\n    depth: 1.5\n',
      errors: ['Should be integer Path: steps.Clone.depth'],
    },
    {
      name: 'git-clone depth below 1',
      text: 'steps:\n  Clone:\n    type: git-clone\n    depth: 0\n',
      errors: ['Should be at least 1 Path: steps.Clone.depth'],
    },
    {
      name: 'git-clone unknown property',
      text: 'steps:\n  Clone:\n    type: git-clone\n    branch: main\n',
      errors: [INVALID_PROP('branch', 'steps.Clone')],
    },
    {
      name: 'docker-push without image_name',
      text: 'steps:\n  Push:\n    type: docker-push\n    tag: latest\n',
      errors: [REQUIRED('image_name', 'steps.Push')],
    },
    {
      name: 'docker-push empty image_name',
      text: 'steps:\n  Push:\n    type: docker-push\n    image_name: ""\n',
      errors: ['Should not be empty Path: steps.Push.image_name'],
    },
    {
      name: 'deploy (kubernetes by default) missing cluster, namespace, service',
      text: 'steps:\n  Deploy:\n    type: deploy\n',
      errors: [REQUIRED('cluster', 'steps.Deploy'), REQUIRED('namespace', 'steps.Deploy'), REQUIRED('service', 'steps.Deploy')],
    },
    {
      name: 'deploy to kubernetes with an environment property',
      text: yaml`
        steps:
          Deploy:
            type: deploy
            cluster: c
            namespace: n
            service: s
            env_id: e
      `,
      errors: [INVALID_PROP('env_id', 'steps.Deploy')],
    },
    {
      name: 'deploy environment without env_id',
      text: 'steps:\n  Deploy:\n    type: deploy\n    target: environment\n    cluster: c\n',
      errors: [REQUIRED('env_id', 'steps.Deploy'), INVALID_PROP('cluster', 'steps.Deploy')],
    },
    {
      name: 'deploy environment partial not a boolean',
      text: 'steps:\n  Deploy:\n    type: deploy\n    target: environment\n    env_id: e\n    partial: "yes"\n',
      errors: ['Should be boolean or object Path: steps.Deploy.partial'],
    },
    {
      name: 'deploy with an unknown target',
      text: 'steps:\n  Deploy:\n    type: deploy\n    target: lambda\n    cluster: c\n    namespace: n\n    service: s\n',
      errors: ['Property value is invalid. Should be kubernetes, environment Path: steps.Deploy.target'],
    },
    {
      name: 'cfn-component without template',
      text: 'steps:\n  Component:\n    type: cfn-component\n',
      errors: [REQUIRED('template', 'steps.Component')],
    },
    {
      name: 'trigger-pipeline without pipeline',
      text: 'steps:\n  Next:\n    type: trigger-pipeline\n    branch: main\n',
      errors: [REQUIRED('pipeline', 'steps.Next')],
    },
    {
      name: 'terraform-build dir not a string',
      text: 'steps:\n  Tf:\n    type: terraform-build\n    terraform_dir: 5\n',
      errors: ['Should be string Path: steps.Tf.terraform_dir'],
    },
    {
      name: 'trigger-reflect-test without test_id and with empty tags',
      text: 'steps:\n  Test:\n    type: trigger-reflect-test\n    tags: []\n',
      errors: [REQUIRED('test_id', 'steps.Test'), 'Array does not have enough items Path: steps.Test.tags'],
    },
    {
      name: 'typed step with runtime',
      text: 'steps:\n  Clone:\n    type: git-clone\n    runtime:\n      packages:\n        go: 1\n',
      errors: ['Runtime is invalid on the step Clone. Should be one of: nodejs, java', INVALID_PROP('runtime', 'steps.Clone')],
    },

    // Plain build step schema.
    {
      name: 'build step with empty commands',
      text: 'steps:\n  Build:\n    commands: []\n',
      errors: ['Array does not have enough items Path: steps.Build.commands'],
    },
    {
      name: 'build step with a non-string command',
      text: 'steps:\n  Build:\n    commands:\n      - npm ci\n      - echo: hi\n',
      errors: ['Should be string Path: steps.Build.commands[1]'],
    },
    {
      name: 'build step with an unknown property',
      text: 'steps:\n  Build:\n    image: node:20\n    script: make\n',
      errors: [INVALID_PROP('script', 'steps.Build')],
    },
    {
      name: 'build step with empty artifacts',
      text: 'steps:\n  Build:\n    artifacts: {}\n',
      errors: ['Object does not have enough properties Path: steps.Build.artifacts'],
    },
    {
      name: 'artifact file set without paths',
      text: 'steps:\n  Build:\n    commands: [ls]\n    artifacts:\n      files:\n        zip: []\n',
      errors: ['Array does not have enough items Path: steps.Build.artifacts.files.zip'],
    },
    {
      name: 'artifact file set with an unsafe name',
      text: 'steps:\n  Build:\n    commands: [ls]\n    artifacts:\n      files:\n        ../up: [dist/]\n',
      errors: ["Invalid property name '../up' Path: steps.Build.artifacts.files"],
    },
    {
      name: 'artifacts with an unknown property',
      text: 'steps:\n  Build:\n    artifacts:\n      reports: [a]\n',
      errors: [INVALID_PROP('reports', 'steps.Build.artifacts')],
    },
    {
      name: 'step runtime compute type invalid',
      text: 'steps:\n  Build:\n    runtime:\n      computeType: TINY\n    commands: [ls]\n',
      errors: ['Property value is invalid. Should be SMALL, MEDIUM, LARGE, 2XLARGE Path: steps.Build.runtime.computeType'],
    },

    // Several errors, in order.
    {
      name: 'errors come in order: stages, runtime, root, steps, unused stages',
      text: yaml`
        stages: [clone, build, ship]
        runtime:
          packages:
            php: 8
        extra: true
        steps:
          1:
            stage: clone
            type: git-clone
          Build:
            commands: [ls]
          Push:
            stage: nope
            type: docker-push
      `,
      errors: [
        'Runtime is invalid. Should be one of: nodejs, java',
        INVALID_PROP('extra', 'Root level'),
        'The step name 1 should be a string',
        'Step Build is missing the stage property. If stages are defined, all steps must have a stage',
        'The stage nope on the step Push does not exist',
        REQUIRED('image_name', 'steps.Push'),
        'The stage build is not used in any step',
        'The stage ship is not used in any step',
      ],
    },
  ];

  it.each(cases)('$name', ({ text, errors }) => {
    const result = validatePipelineSpec(text);
    expect(result.errors).toEqual(errors);
    expect(result.spec).toBeNull();
  });
});

describe('validatePipelineSpec: valid specs', () => {
  const validSteps: { name: string; step: string; type: string; config: Record<string, unknown> }[] = [
    { name: 'git-clone', step: 'type: git-clone', type: 'git-clone', config: {} },
    { name: 'git-clone with depth', step: 'type: git-clone\ndepth: 1', type: 'git-clone', config: { depth: 1 } },
    { name: 'docker-push', step: 'type: docker-push\nimage_name: app', type: 'docker-push', config: { image_name: 'app' } },
    {
      name: 'docker-push full',
      step: 'type: docker-push\nimage_name: app\ntag: v1\nregistry: hub\ndockerfile: Dockerfile\ncontext: .',
      type: 'docker-push',
      config: { image_name: 'app', tag: 'v1', registry: 'hub', dockerfile: 'Dockerfile', context: '.' },
    },
    {
      name: 'deploy (kubernetes by default)',
      step: 'type: deploy\ncluster: c\nnamespace: n\nservice: s',
      type: 'deploy',
      config: { target: 'kubernetes', cluster: 'c', namespace: 'n', service: 's' },
    },
    {
      name: 'deploy to kubernetes with tag',
      step: 'type: deploy\ntarget: kubernetes\ncluster: c\nnamespace: n\nservice: s\ntag: "{{GANTRY_COMMIT}}"',
      type: 'deploy',
      config: { target: 'kubernetes', cluster: 'c', namespace: 'n', service: 's', tag: '{{GANTRY_COMMIT}}' },
    },
    {
      name: 'deploy environment',
      step: 'type: deploy\ntarget: environment\nenv_id: e1\npartial: true',
      type: 'deploy',
      config: { target: 'environment', env_id: 'e1', partial: true },
    },
    { name: 'cfn-component', step: 'type: cfn-component\ntemplate: t.yaml', type: 'cfn-component', config: { template: 't.yaml' } },
    { name: 'trigger-pipeline', step: 'type: trigger-pipeline\npipeline: other', type: 'trigger-pipeline', config: { pipeline: 'other' } },
    { name: 'terraform-build (default dir)', step: 'type: terraform-build', type: 'terraform-build', config: { terraform_dir: '.' } },
    { name: 'trigger-reflect-test', step: 'type: trigger-reflect-test\ntest_id: "42"', type: 'trigger-reflect-test', config: { test_id: '42' } },
    {
      name: 'trigger-reflect-test with tags',
      step: 'type: trigger-reflect-test\ntest_id: t\ntags: [smoke, fast]',
      type: 'trigger-reflect-test',
      config: { test_id: 't', tags: ['smoke', 'fast'] },
    },
    { name: 'plain build step with image only', step: 'image: node:20', type: 'build', config: { image: 'node:20' } },
    { name: 'plain build step with commands only', step: 'commands: [make]', type: 'build', config: { commands: ['make'] } },
    {
      name: 'plain build step with artifacts only',
      step: 'artifacts:\n  json: out.json',
      type: 'build',
      config: { artifacts: { json: 'out.json' } },
    },
  ];

  it.each(validSteps)('minimal $name step', ({ step, type, config }) => {
    const indented = step
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n');
    const { errors, spec } = validatePipelineSpec(`steps:\n  Step:\n${indented}\n`);
    expect(errors).toEqual([]);
    expect(spec!.steps).toHaveLength(1);
    expect(spec!.steps[0]).toMatchObject({ name: 'Step', stage: null, type, config });
    expect(spec!.steps[0].config).toEqual(config);
  });

  it('covers every step type', () => {
    const covered = new Set(validSteps.map((s) => s.type));
    for (const t of STEP_TYPES) expect(covered.has(t)).toBe(true);
  });

  it('accepts the default template', () => {
    const { errors, spec } = validatePipelineSpec(DEFAULT_SPEC_TEMPLATE);
    expect(errors).toEqual([]);
    expect(spec!.stages).toEqual(['clone', 'build']);
    expect(spec!.steps.map((s) => [s.name, s.stage, s.type])).toEqual([
      ['Clone', 'clone', 'git-clone'],
      ['Build', 'build', 'build'],
    ]);
    const build = spec!.steps[1];
    expect(build.image).toMatch(/^aws\/codebuild\/standard:/);
    expect(build.commands.every((c) => c.startsWith('npm '))).toBe(true);
  });

  it('parses a full plain build step', () => {
    const { errors, spec } = validatePipelineSpec(yaml`
      stages:
        - clone
        - build
      runtime:
        computeType: 2XLARGE
        packages:
          nodejs: 20
          java: corretto17
      steps:
        Clone:
          stage: clone
          type: git-clone
        Build:
          stage: build
          image: node:20
          runtime: { packages: { nodejs: 20 } }
          commands:
            - npm ci
            - npm test
          artifacts:
            files:
              package_zip:
                - dist/
                - "*.json"
            json: output.json
    `);
    expect(errors).toEqual([]);
    const expected: ParsedSpec = {
      stages: ['clone', 'build'],
      runtime: { computeType: '2XLARGE', packages: { nodejs: 20, java: 'corretto17' } },
      steps: [
        { name: 'Clone', stage: 'clone', type: 'git-clone', commands: [], config: {} },
        {
          name: 'Build',
          stage: 'build',
          type: 'build',
          image: 'node:20',
          runtime: { packages: { nodejs: 20 } },
          commands: ['npm ci', 'npm test'],
          artifacts: { files: { package_zip: ['dist/', '*.json'] }, json: 'output.json' },
          config: {
            image: 'node:20',
            runtime: { packages: { nodejs: 20 } },
            commands: ['npm ci', 'npm test'],
            artifacts: { files: { package_zip: ['dist/', '*.json'] }, json: 'output.json' },
          },
        },
      ],
    };
    expect(spec).toEqual(expected);
  });

  it('keeps steps in file order, names included that JavaScript would reorder', () => {
    const { errors, spec } = validatePipelineSpec('steps:\n  Zeta:\n    commands: [a]\n  step-2:\n    commands: [b]\n  Alpha:\n    commands: [c]\n');
    expect(errors).toEqual([]);
    expect(spec!.steps.map((s) => s.name)).toEqual(['Zeta', 'step-2', 'Alpha']);
  });

  it('ignores a step stage when no stages are listed', () => {
    const { errors, spec } = validatePipelineSpec('steps:\n  Build:\n    stage: build\n    commands: [ls]\n');
    expect(errors).toEqual([]);
    expect(spec!.stages).toEqual([]);
    expect(spec!.steps[0].stage).toBeNull();
  });

  it('leaves placeholders as written', () => {
    const { spec } = validatePipelineSpec('steps:\n  Build:\n    commands: ["echo {{GANTRY_BRANCH}}"]\n');
    expect(spec!.steps[0].commands).toEqual(['echo {{GANTRY_BRANCH}}']);
  });
});

describe('executionPlan', () => {
  it('groups steps by stage in the listed stage order, steps in file order', () => {
    const { spec } = validatePipelineSpec(yaml`
      stages: [clone, build, deploy]
      steps:
        Deploy:
          stage: deploy
          type: deploy
          cluster: c
          namespace: n
          service: s
        Test:
          stage: build
          commands: [npm test]
        Clone:
          stage: clone
          type: git-clone
        Package:
          stage: build
          commands: [npm pack]
    `);
    expect(spec).not.toBeNull();
    const plan = executionPlan(spec!);
    expect(plan.map((g) => [g.stage, g.steps.map((s) => s.name)])).toEqual([
      ['clone', ['Clone']],
      ['build', ['Test', 'Package']],
      ['deploy', ['Deploy']],
    ]);
  });

  it('makes one group of all steps when there are no stages', () => {
    const { spec } = validatePipelineSpec('steps:\n  B:\n    commands: [b]\n  A:\n    type: git-clone\n');
    expect(executionPlan(spec!)).toEqual([{ stage: null, steps: spec!.steps }]);
    expect(executionPlan(spec!)[0].steps.map((s) => s.name)).toEqual(['B', 'A']);
  });
});

describe('step catalogue', () => {
  it('has the 8 entries of the spec, in order', () => {
    expect(STEP_CATALOGUE.map((e) => e.id)).toEqual([
      'git-clone',
      'docker-push',
      'deploy-kubernetes',
      'cfn-component',
      'deploy-environment',
      'trigger-pipeline',
      'terraform-build',
      'trigger-reflect-test',
    ]);
    expect(new Set(STEP_CATALOGUE.map((e) => e.title)).size).toBe(8);
  });

  it.each(STEP_CATALOGUE.map((e) => [e.id, e] as const))('snippet of %s is a valid step under steps:', (_id, entry) => {
    expect(entry.snippet.startsWith('  ')).toBe(true);
    const { errors, spec } = validatePipelineSpec(`steps:\n${entry.snippet}`);
    expect(errors).toEqual([]);
    expect(spec!.steps).toHaveLength(1);
  });

  it('all snippets together make a valid spec', () => {
    const { errors, spec } = validatePipelineSpec(`steps:\n${STEP_CATALOGUE.map((e) => e.snippet).join('')}`);
    expect(errors).toEqual([]);
    expect(spec!.steps).toHaveLength(8);
  });

  const searches: { term: string; ids: string[] }[] = [
    { term: '', ids: STEP_CATALOGUE.map((e) => e.id) },
    { term: '   ', ids: STEP_CATALOGUE.map((e) => e.id) },
    { term: 'KUBERNETES', ids: ['deploy-kubernetes'] },
    { term: 'deploy', ids: ['deploy-kubernetes', 'deploy-environment'] },
    { term: 'pipeline', ids: ['git-clone', 'trigger-pipeline'] },
    { term: 'reflect', ids: ['trigger-reflect-test'] },
    { term: 'no such thing', ids: [] },
    // Titles are not searched, only descriptions.
    { term: 'Terraform build', ids: [] },
  ];
  it.each(searches)('search "$term"', ({ term, ids }) => {
    expect(searchStepCatalogue(term).map((e) => e.id)).toEqual(ids);
  });
});

describe('resolvePlaceholders', () => {
  const vars = {
    GANTRY_PIPELINE_ID: 'p-1',
    GANTRY_PIPELINE_NAME: 'web',
    GANTRY_PIPELINE_EXECUTION_ID: 'b-9',
    GANTRY_BRANCH: 'main',
    GANTRY_COMMIT: 'abc1234',
  };
  const cases: { text: string; out: string }[] = [
    { text: 'image:{{GANTRY_COMMIT}}', out: 'image:abc1234' },
    { text: '{{GANTRY_PIPELINE_NAME}}/{{GANTRY_BRANCH}}/{{GANTRY_PIPELINE_EXECUTION_ID}}', out: 'web/main/b-9' },
    { text: '{{ GANTRY_PIPELINE_ID }}', out: 'p-1' },
    { text: '{{UNKNOWN}} and {{GANTRY_BRANCH}}', out: '{{UNKNOWN}} and main' },
    { text: '{{constructor}}', out: '{{constructor}}' },
    { text: '{GANTRY_BRANCH} $GANTRY_BRANCH {{GANTRY_BRANCH', out: '{GANTRY_BRANCH} $GANTRY_BRANCH {{GANTRY_BRANCH' },
    { text: 'no placeholders', out: 'no placeholders' },
  ];
  it.each(cases)('$text', ({ text, out }) => {
    expect(resolvePlaceholders(text, vars)).toBe(out);
  });

  it('replaces with an empty value when the variable is empty', () => {
    expect(resolvePlaceholders('x{{GANTRY_COMMIT}}y', { GANTRY_COMMIT: '' })).toBe('xy');
  });
});
