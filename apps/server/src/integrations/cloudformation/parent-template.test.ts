import { describe, it, expect } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { ENVIRONMENT_TEMPLATES } from '@gantry/contracts';
import { buildParentTemplate, type NestedResource } from './parent-template.js';
import { parseTemplate, TemplateError } from './child-template.js';
import { DEFAULT_VENDOR_ROOT } from '../../modules/components/components.module.js';

const VPC = `AWSTemplateFormatVersion: '2010-09-09'
Resources:
  Vpc:
    Type: AWS::EC2::VPC
    Properties: { CidrBlock: 10.0.0.0/16 }
  SubnetA:
    Type: AWS::EC2::Subnet
    Properties: { VpcId: !Ref Vpc, CidrBlock: !Select [0, !Cidr [!GetAtt Vpc.CidrBlock, 2, 8]] }
Conditions:
  Never: !Equals [a, b]
Outputs:
  VpcId: { Value: !Ref Vpc }
  SubnetIds: { Value: !Join [',', [!Ref SubnetA]] }
  Sometimes: { Condition: Never, Value: x }
`;
const APP = JSON.stringify({
  Parameters: { VpcId: { Type: 'String' }, Size: { Type: 'Number' }, Token: { Type: 'String', NoEcho: true } },
  Resources: {},
  Outputs: { Url: { Value: 'x' } },
});
const url = (n: string) => `https://gantry-templates-123456789012-eu-west-1.s3.eu-west-1.amazonaws.com/stage/dep/${n}.template`;
const tags = { 'gantry:environment': '6a1f7d3e-8c6e-4b0e-9b7a-1c2d3e4f5a6b' };
const vpc: NestedResource = { name: 'vpc', templateBody: VPC, parameters: [] };
const app = (parameters: NestedResource['parameters']): NestedResource => ({ name: 'app', templateBody: APP, parameters });

describe('child templates', () => {
  it('reads YAML with the short-form intrinsics as their JSON form, and JSON', () => {
    const doc = parseTemplate(VPC)!;
    expect((doc.Resources as any).SubnetA.Properties).toEqual({
      VpcId: { Ref: 'Vpc' },
      CidrBlock: { 'Fn::Select': [0, { 'Fn::Cidr': [{ 'Fn::GetAtt': ['Vpc', 'CidrBlock'] }, 2, 8] }] },
    });
    expect((doc.Outputs as any).SubnetIds.Value).toEqual({ 'Fn::Join': [',', [{ Ref: 'SubnetA' }]] });
    expect(Object.keys(parseTemplate(APP)!.Parameters as object)).toEqual(['VpcId', 'Size', 'Token']);
    expect(parseTemplate('')).toBeNull();
    expect(() => parseTemplate('Resources: [a', 'template of vpc')).toThrow(/The template of vpc is neither valid JSON nor YAML/);
    expect(() => parseTemplate('- a\n- b')).toThrow(TemplateError);
    expect(() => parseTemplate('Outputs:\n  X: { Value: !Refs Vpc }')).toThrow(/Unresolved tag: !Refs/);
    expect(parseTemplate("Rules:\n  R:\n    Assertions:\n      - Assert: !Contains [['a'], !Ref P]")!.Rules).toEqual({
      R: { Assertions: [{ Assert: { 'Fn::Contains': [['a'], { Ref: 'P' }] } }] },
    });
  });
});

describe('parent template', () => {
  it('makes each resource a nested stack with its literal parameters (strings) and references as GetAtt of outputs', () => {
    const { body, parameters } = buildParentTemplate(
      [
        vpc,
        app([
          { key: 'VpcId', value: 'vpc.VpcId', reference: true },
          { key: 'Size', value: 2, reference: false },
        ]),
      ],
      { templateUrl: url, tags },
    );
    const doc = JSON.parse(body);
    expect(doc.AWSTemplateFormatVersion).toBe('2010-09-09');
    expect(doc.Parameters).toBeUndefined();
    expect(parameters).toEqual([]);
    expect(doc.Resources).toEqual({
      vpc: {
        Type: 'AWS::CloudFormation::Stack',
        Properties: { TemplateURL: url('vpc'), Parameters: {}, Tags: [{ Key: 'gantry:environment', Value: tags['gantry:environment'] }] },
      },
      app: {
        Type: 'AWS::CloudFormation::Stack',
        Properties: {
          TemplateURL: url('app'),
          Parameters: { VpcId: { 'Fn::GetAtt': ['vpc', 'Outputs.VpcId'] }, Size: '2' },
          Tags: [{ Key: 'gantry:environment', Value: tags['gantry:environment'] }],
        },
      },
    });
  });

  it('re-exports every unconditional child output, its description naming the source', () => {
    const t = buildParentTemplate([vpc, app([])], { templateUrl: url, tags });
    expect(JSON.parse(t.body).Outputs).toEqual({
      vpcVpcId: { Description: 'vpc.VpcId', Value: { 'Fn::GetAtt': ['vpc', 'Outputs.VpcId'] } },
      vpcSubnetIds: { Description: 'vpc.SubnetIds', Value: { 'Fn::GetAtt': ['vpc', 'Outputs.SubnetIds'] } },
      appUrl: { Description: 'app.Url', Value: { 'Fn::GetAtt': ['app', 'Outputs.Url'] } },
    });
    expect(t.outputs).toEqual({
      vpcVpcId: { resource: 'vpc', output: 'VpcId' },
      vpcSubnetIds: { resource: 'vpc', output: 'SubnetIds' },
      appUrl: { resource: 'app', output: 'Url' },
    });
  });

  it('numbers a re-exported output whose id another resource or output already has', () => {
    const a = { name: 'ab', templateBody: JSON.stringify({ Outputs: { CdX: { Value: '1' } } }), parameters: [] };
    const b = { name: 'abCd', templateBody: JSON.stringify({ Outputs: { X: { Value: '2' } } }), parameters: [] };
    expect(Object.keys(buildParentTemplate([a, b], { templateUrl: url, tags }).outputs)).toEqual(['abCdX', 'abCdX2']);
  });

  it('passes sensitive literals as NoEcho parameters of the parent, never in the template', () => {
    const t = buildParentTemplate([vpc, app([{ key: 'Token', value: 's3cr3t', reference: false, sensitive: true }])], { templateUrl: url, tags });
    const doc = JSON.parse(t.body);
    expect(t.body).not.toContain('s3cr3t');
    expect(doc.Parameters).toEqual({ appToken: { Type: 'String', NoEcho: true, Description: 'app.Token' } });
    expect(doc.Resources.app.Properties.Parameters).toEqual({ Token: { Ref: 'appToken' } });
    expect(t.parameters).toEqual([{ ParameterKey: 'appToken', ParameterValue: 's3cr3t' }]);
  });

  it('refuses unknown references, missing or conditional outputs, cycles, bad names and duplicates', () => {
    const build = (rs: NestedResource[]) => () => buildParentTemplate(rs, { templateUrl: url, tags });
    expect(build([app([{ key: 'VpcId', value: 'ghost.VpcId', reference: true }])])).toThrow(
      'app.VpcId refers to ghost.VpcId, which is no resource output of this environment',
    );
    expect(build([vpc, app([{ key: 'VpcId', value: 'vpc', reference: true }])])).toThrow(
      'app.VpcId refers to vpc, which is no resource output of this environment',
    );
    expect(build([vpc, app([{ key: 'VpcId', value: 'vpc.Nope', reference: true }])])).toThrow(
      'app.VpcId refers to vpc.Nope, but vpc has no (unconditional) output Nope',
    );
    expect(build([vpc, app([{ key: 'VpcId', value: 'vpc.Sometimes', reference: true }])])).toThrow(/has no \(unconditional\) output Sometimes/);
    const loop = (name: string, other: string): NestedResource => ({
      name,
      templateBody: APP,
      parameters: [{ key: 'VpcId', value: `${other}.Url`, reference: true }],
    });
    expect(build([loop('one', 'two'), loop('two', 'one')])).toThrow('The resources refer to each other in a cycle: one → two → one');
    expect(build([{ ...vpc, name: 'my-vpc' }])).toThrow(/my-vpc cannot name a nested stack/);
    expect(build([vpc, vpc])).toThrow('Two resources are named vpc');
    expect(build([{ ...vpc, templateBody: '{ "Resources": ' }])).toThrow(TemplateError);
  });

  it.each(Object.keys(ENVIRONMENT_TEMPLATES) as (keyof typeof ENVIRONMENT_TEMPLATES)[])(
    'builds the %s environment template from the vendor components',
    (name) => {
      const folders = fs.readdirSync(DEFAULT_VENDOR_ROOT).map((f) => ({
        dir: path.join(DEFAULT_VENDOR_ROOT, f),
        meta: JSON.parse(fs.readFileSync(path.join(DEFAULT_VENDOR_ROOT, f, 'component.json'), 'utf8')),
      }));
      const resources = ENVIRONMENT_TEMPLATES[name]
        .resources({ ImageUrl: 'strapi/strapi:4', DatabaseClient: 'sqlite', DesiredReplicas: 1, Memory: 512, CPU: 256, Domain: 'cms.example.com' })
        .map((r) => {
          const c = folders.find((f) => f.meta.name === r.componentName)!;
          return { name: r.name, templateBody: fs.readFileSync(path.join(c.dir, c.meta.template), 'utf8'), parameters: r.configurations };
        });
      const doc = JSON.parse(buildParentTemplate(resources, { templateUrl: url, tags }).body);
      expect(Object.keys(doc.Resources)).toEqual(resources.map((r) => r.name));
      // every literal is one of the child's parameters
      for (const r of resources) {
        const declared = Object.keys((parseTemplate(r.templateBody)!.Parameters ?? {}) as object);
        expect(
          Object.keys(doc.Resources[r.name].Properties.Parameters).filter((k) => !declared.includes(k)),
          r.name,
        ).toEqual([]);
      }
    },
  );
});
