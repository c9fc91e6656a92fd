import { describe, it, expect } from 'vitest';
import { validatePipelineSpec, placeholderVariables, resolvePlaceholdersDeep, resolvePlaceholders, specFilePath } from './pipeline-spec.js';

/**
 * Shapes of specs teams bring from the original product (`.microtica/microtica.yaml`): `type: build`
 * with a `docker` block, `title`, `cache`, artifacts given as one path, deploys with `branch_filter`
 * or a `partial` object, and MIC_ / pipeline-variable placeholders in values and keys.
 */
const shapes: { name: string; text: string; check?: (spec: NonNullable<ReturnType<typeof validatePipelineSpec>['spec']>) => void }[] = [
  {
    name: 'node app: build step with a docker block, then a kubernetes deploy on master only',
    text: `steps:
  Clone:
    title: Clone the repository
    type: git-clone
  BuildApp:
    title: Build and push the image
    type: build
    image: public.ecr.aws/docker/library/node:20
    cache: true
    commands:
      - npm install
      - npm test
    docker:
      image_name: "{{ IMAGE_NAME }}"
      registry: "{{ REGISTRY }}"
      tag: "{{ MIC_PIPELINE_EXECUTION_ID }}"
      dockerfile: ./Dockerfile
  Deploy:
    title: Deploy on Kubernetes
    type: deploy
    target: kubernetes
    cluster: "{{CLUSTER_ID}}"
    service: "{{ SERVICE_NAME }}"
    namespace: "microtica"
    tag: "{{ MIC_PIPELINE_EXECUTION_ID }}"
    branch_filter: master
`,
    check: (spec) => {
      expect(spec.steps.map((s) => [s.name, s.type, s.title])).toEqual([
        ['Clone', 'git-clone', 'Clone the repository'],
        ['BuildApp', 'build', 'Build and push the image'],
        ['Deploy', 'deploy', 'Deploy on Kubernetes'],
      ]);
      expect(spec.steps[1]!.commands).toEqual(['npm install', 'npm test']);
      expect(spec.steps[1]!.config.cache).toBe(true);
      expect(spec.steps[1]!.config.docker).toEqual({
        image_name: '{{ IMAGE_NAME }}',
        registry: '{{ REGISTRY }}',
        tag: '{{ MIC_PIPELINE_EXECUTION_ID }}',
        dockerfile: './Dockerfile',
      });
      expect(spec.steps[2]!.config).toMatchObject({ target: 'kubernetes', branch_filter: 'master' });
    },
  },
  {
    name: 'component: build step with artifacts given as one path, then a partial environment deploy with overrides',
    text: `steps:
  Clone:
    type: git-clone
  PackageComponent:
    type: build
    image: "aws/codebuild/standard:7.0"
    cache: false
    commands:
      - npm install
      - npm run build
    artifacts:
      files:
        package_zip: dist/
        schema_json:
          - schema.json
  DeployEnv:
    type: deploy
    target: environment
    env_id: "{{ENV_ID}}"
    partial:
      create_missing_resources: true
      resource_version_overrides:
        "{{RESOURCE_NAME}}": "{{MIC_PIPELINE_EXECUTION_ID}}"
`,
    check: (spec) => {
      expect(spec.steps[1]!.artifacts?.files).toEqual({ package_zip: ['dist/'], schema_json: ['schema.json'] });
      expect(spec.steps[2]!.config.partial).toEqual({
        create_missing_resources: true,
        resource_version_overrides: { '{{RESOURCE_NAME}}': '{{MIC_PIPELINE_EXECUTION_ID}}' },
      });
    },
  },
  {
    name: 'stages, titles on every step type, partial as a boolean',
    text: `stages:
  - build
  - deploy
steps:
  Build:
    stage: build
    title: Build
    type: build
    commands: [make]
  Deploy:
    stage: deploy
    title: Deploy the environment
    type: deploy
    target: environment
    env_id: env-123
    partial: true
`,
    check: (spec) => expect(spec.steps.map((s) => s.stage)).toEqual(['build', 'deploy']),
  },
  {
    name: 'a build step with only a docker block (no commands)',
    text: `steps:
  Image:
    type: build
    docker:
      image_name: api
`,
    check: (spec) => expect(spec.steps[0]!.commands).toEqual([]),
  },
  {
    name: 'java service: plain build step (no type) with cache and title, maven',
    text: `steps:
  Package:
    title: Maven package
    image: maven:3-eclipse-temurin-17
    cache: true
    commands:
      - mvn -B package
    artifacts:
      files:
        app: target/app.jar
`,
    check: (spec) => expect(spec.steps[0]).toMatchObject({ type: 'build', title: 'Maven package', artifacts: { files: { app: ['target/app.jar'] } } }),
  },
];

describe('real-world spec shapes validate', () => {
  it.each(shapes)('$name', ({ text, check }) => {
    const { errors, spec } = validatePipelineSpec(text);
    expect(errors).toEqual([]);
    check?.(spec!);
  });
});

describe('what stays invalid in those shapes (§5 wording)', () => {
  const cases: { name: string; text: string; errors: string[] }[] = [
    {
      name: 'a docker block without image_name',
      text: 'steps:\n  B:\n    type: build\n    docker:\n      tag: x\n',
      errors: ["Should have required property 'image_name' Path: steps.B.docker"],
    },
    {
      name: 'an unknown property in the docker block',
      text: 'steps:\n  B:\n    type: build\n    docker:\n      image_name: x\n      push: true\n',
      errors: ["Invalid property 'push' Path: steps.B.docker"],
    },
    { name: 'cache as a string', text: 'steps:\n  B:\n    type: build\n    cache: "yes"\n', errors: ['Should be boolean Path: steps.B.cache'] },
    { name: 'an empty title', text: 'steps:\n  C:\n    type: git-clone\n    title: ""\n', errors: ['Should not be empty Path: steps.C.title'] },
    {
      name: 'an empty list of artifact paths',
      text: 'steps:\n  B:\n    commands: [ls]\n    artifacts:\n      files:\n        z: []\n',
      errors: ['Array does not have enough items Path: steps.B.artifacts.files.z'],
    },
    {
      name: 'an unknown key in partial',
      text: 'steps:\n  D:\n    type: deploy\n    target: environment\n    env_id: e\n    partial:\n      everything: true\n',
      errors: ["Invalid property 'everything' Path: steps.D.partial"],
    },
    {
      name: 'branch_filter on an environment deploy',
      text: 'steps:\n  D:\n    type: deploy\n    target: environment\n    env_id: e\n    branch_filter: main\n',
      errors: ["Invalid property 'branch_filter' Path: steps.D"],
    },
    {
      name: 'docker on a git-clone step',
      text: 'steps:\n  C:\n    type: git-clone\n    docker:\n      image_name: x\n',
      errors: ["Invalid property 'docker' Path: steps.C"],
    },
  ];
  it.each(cases)('$name', ({ text, errors }) => {
    expect(validatePipelineSpec(text)).toEqual({ errors, spec: null });
  });
});

describe('placeholders of brought specs', () => {
  const gantry = {
    GANTRY_PIPELINE_ID: 'p-1',
    GANTRY_PIPELINE_NAME: 'web',
    GANTRY_PIPELINE_EXECUTION_ID: 'b-9',
    GANTRY_BRANCH: 'master',
    GANTRY_COMMIT: 'abc1234',
  };
  const vars = placeholderVariables(gantry, { CLUSTER_ID: 'prod', RESOURCE_NAME: 'Api', GANTRY_BRANCH: 'not-this' });

  it('MIC_ variables are aliases of Gantry’s, pipeline variables resolve by name, Gantry’s own win', () => {
    expect(resolvePlaceholders('{{MIC_PIPELINE_EXECUTION_ID}} {{MIC_PIPELINE_NAME}} {{ MIC_BRANCH_FILTER }} {{CLUSTER_ID}} {{GANTRY_BRANCH}}', vars)).toBe(
      'b-9 web master prod master',
    );
  });

  it('resolves in values and in keys, deep', () => {
    expect(
      resolvePlaceholdersDeep(
        {
          env_id: '{{CLUSTER_ID}}',
          partial: { resource_version_overrides: { '{{RESOURCE_NAME}}': '{{MIC_PIPELINE_EXECUTION_ID}}' } },
          n: 1,
          list: ['{{UNKNOWN}}'],
        },
        vars,
      ),
    ).toEqual({ env_id: 'prod', partial: { resource_version_overrides: { Api: 'b-9' } }, n: 1, list: ['{{UNKNOWN}}'] });
  });
});

describe('spec file location', () => {
  it.each([
    ['/', undefined, 'gantry.yaml'],
    ['', '.microtica/microtica.yaml', '.microtica/microtica.yaml'],
    ['/services/api/', '.microtica/microtica.yaml', 'services/api/.microtica/microtica.yaml'],
    ['services/api', 'gantry.yaml', 'services/api/gantry.yaml'],
  ] as const)('work dir %s, %s → %s', (workDir, file, out) => {
    expect(specFilePath(workDir, file)).toBe(out);
  });
});
