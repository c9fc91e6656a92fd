import { parseDocument, type CollectionTag, type ScalarTag } from 'yaml';

/** CloudFormation's short-form intrinsics (`!Ref`, `!GetAtt`, `!Sub` …, and the Rules ones) as their long JSON form. */
const INTRINSICS = [
  'Base64',
  'Cidr',
  'FindInMap',
  'GetAtt',
  'GetAZs',
  'ImportValue',
  'Join',
  'Length',
  'Select',
  'Split',
  'Sub',
  'ToJsonString',
  'Transform',
  'And',
  'Equals',
  'If',
  'Not',
  'Or',
  'Condition',
  'Ref',
  'Contains',
  'EachMemberEquals',
  'EachMemberIn',
  'RefAll',
  'ValueOf',
  'ValueOfAll',
];
const longName = (n: string) => (n === 'Ref' || n === 'Condition' ? n : `Fn::${n}`);
const scalar =
  (n: string): unknown =>
  (value: string) => ({ [longName(n)]: n === 'GetAtt' ? [value.slice(0, value.indexOf('.')), value.slice(value.indexOf('.') + 1)] : value });

export const CFN_YAML_TAGS: (ScalarTag | CollectionTag)[] = INTRINSICS.flatMap((n) => [
  { tag: `!${n}`, resolve: scalar(n) } as ScalarTag,
  { tag: `!${n}`, collection: 'seq', resolve: (v: { toJSON(): unknown }) => ({ [longName(n)]: v.toJSON() }) } as unknown as CollectionTag,
  { tag: `!${n}`, collection: 'map', resolve: (v: { toJSON(): unknown }) => ({ [longName(n)]: v.toJSON() }) } as unknown as CollectionTag,
]);

export class TemplateError extends Error {}

/** A template (JSON or YAML, short-form intrinsics included) as a plain document; null when empty. */
export function parseTemplate(body: string, what = 'template'): Record<string, unknown> | null {
  let doc: unknown;
  try {
    if (body.trimStart().startsWith('{')) doc = JSON.parse(body);
    else {
      const yaml = parseDocument(body, { customTags: CFN_YAML_TAGS, uniqueKeys: true });
      // an unknown tag (`!Refs`) is only a warning to the YAML parser, and a failed stack later
      const problem = yaml.errors[0] ?? yaml.warnings[0];
      if (problem) throw problem;
      doc = yaml.toJS();
    }
  } catch (err) {
    throw new TemplateError(`The ${what} is neither valid JSON nor YAML: ${(err as Error).message}`);
  }
  if (doc === null || doc === undefined) return null;
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new TemplateError(`The ${what} is not a CloudFormation template (a mapping)`);
  return doc as Record<string, unknown>;
}

/**
 * Outputs a parent can read with `Fn::GetAtt [stack, Outputs.X]`: a conditional output may not
 * exist, and reading a missing one fails the whole stack, so those are left out. Null when the
 * template says nothing about its outputs (an empty body).
 */
export function unconditionalOutputs(doc: Record<string, unknown> | null): string[] | null {
  if (!doc) return null;
  const outputs = (doc.Outputs ?? {}) as Record<string, { Condition?: unknown }>;
  return Object.entries(outputs)
    .filter(([, o]) => !o?.Condition)
    .map(([k]) => k);
}

export const parameterNames = (doc: Record<string, unknown> | null) => Object.keys((doc?.Parameters ?? {}) as object);
export const outputNames = (doc: Record<string, unknown> | null) => Object.keys((doc?.Outputs ?? {}) as object);
