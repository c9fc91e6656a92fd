import { parseDocument, type CollectionTag, type ScalarTag } from 'yaml';
import { AwsError } from './protocol.js';

/**
 * CloudFormation templates as the service reads them: JSON or YAML (short-form intrinsics), checked
 * the way CreateStack checks them, and the intrinsic functions evaluated against a stack's
 * parameters, conditions and resources.
 */
export type Template = {
  Description?: string;
  Parameters?: Record<string, { Type?: string; Default?: unknown; NoEcho?: unknown; AllowedValues?: unknown[] }>;
  Mappings?: Record<string, Record<string, Record<string, unknown>>>;
  Conditions?: Record<string, unknown>;
  Resources: Record<string, { Type: string; Properties?: unknown; DependsOn?: string | string[]; Condition?: string }>;
  Outputs?: Record<string, { Value: unknown; Description?: string; Condition?: string; Export?: { Name: unknown } }>;
};

const FUNCTIONS = 'Base64 Cidr FindInMap GetAtt GetAZs ImportValue Join Select Split Sub ToJsonString And Equals If Not Or'.split(' ');
const fnName = (tag: string) => (tag === 'Ref' || tag === 'Condition' ? tag : `Fn::${tag}`);
const TAGS: (ScalarTag | CollectionTag)[] = [...FUNCTIONS, 'Ref', 'Condition'].flatMap((t) => {
  const wrap = (v: unknown) => ({ [fnName(t)]: t === 'GetAtt' && typeof v === 'string' ? [v.slice(0, v.indexOf('.')), v.slice(v.indexOf('.') + 1)] : v });
  return [
    { tag: `!${t}`, resolve: (v: string) => wrap(v) } as ScalarTag,
    ...(['seq', 'map'] as const).map(
      (collection) => ({ tag: `!${t}`, collection, resolve: (v: { toJSON(): unknown }) => wrap(v.toJSON()) }) as unknown as CollectionTag,
    ),
  ];
});

export const templateError = (message: string) => new AwsError(400, 'ValidationError', `Template format error: ${message}`);
const validation = (message: string) => new AwsError(400, 'ValidationError', message);

export function parseBody(body: string): Template {
  let doc: unknown;
  if (body.trimStart().startsWith('{')) {
    try {
      doc = JSON.parse(body);
    } catch {
      throw templateError('JSON not well-formed. (line 1, column 1)');
    }
  } else {
    const d = parseDocument(body, { customTags: TAGS });
    const bad = d.errors[0] ?? d.warnings.find((x) => x.code === 'TAG_RESOLVE_FAILED');
    if (bad) throw templateError(`YAML not well-formed. (line ${bad.linePos?.[0].line ?? 1}, column ${bad.linePos?.[0].col ?? 1})`);
    doc = d.toJS();
  }
  const t = doc as Template | null;
  if (!t || typeof t !== 'object' || !t.Resources || typeof t.Resources !== 'object' || !Object.keys(t.Resources).length)
    throw templateError('At least one Resources member must be defined.');
  return t;
}

const TYPE = /^(AWS::[A-Za-z0-9]+::[A-Za-z0-9]+(::[A-Za-z0-9]+)?|Custom::[A-Za-z0-9_@-]+)$/;
const PSEUDO = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

/** The logical ids a value refers to (Ref, GetAtt, ${…} of Sub), parameters and pseudo parameters included. */
export function references(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => references(x, out));
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (k === 'Ref' && typeof x === 'string') out.add(x);
      else if (k === 'Fn::GetAtt') out.add(Array.isArray(x) ? String(x[0]) : String(x).split('.')[0]!);
      else if (k === 'Fn::Sub') {
        const [text, vars] = Array.isArray(x) ? [String(x[0]), (x[1] ?? {}) as Record<string, unknown>] : [String(x), {}];
        for (const m of text.matchAll(/\$\{([^!}][^}]*)\}/g)) if (!(m[1]! in vars)) out.add(m[1]!.split('.')[0]!);
        references(vars, out);
      } else references(x, out);
    }
  }
  return out;
}

/** The resources a resource waits for: those it refers to and its DependsOn. */
export const dependencies = (t: Template, id: string) => {
  const r = t.Resources[id]!;
  const deps = new Set([...references(r.Properties)].filter((x) => x in t.Resources));
  for (const d of [r.DependsOn ?? []].flat()) deps.add(d);
  return [...deps];
};

/** CreateStack's own checks of a template and the parameters given to it; answers the parameters' values. */
export function checkTemplate(t: Template, given: Record<string, string>, capabilities: string[]): Record<string, string> {
  const unknownTypes = Object.values(t.Resources)
    .map((r) => r?.Type)
    .filter((x) => typeof x !== 'string' || !TYPE.test(x));
  if (unknownTypes.length) throw templateError(`Unrecognized resource types: [${unknownTypes.join(', ')}]`);
  const known = new Set([...Object.keys(t.Resources), ...Object.keys(t.Parameters ?? {}), ...PSEUDO]);
  const unresolved = Object.entries(t.Resources).flatMap(([, r]) => [...references(r.Properties), ...[r.DependsOn ?? []].flat()].filter((x) => !known.has(x)));
  if (unresolved.length)
    throw templateError(`Unresolved resource dependencies [${[...new Set(unresolved)].join(', ')}] in the Resources block of the template`);
  const declared = t.Parameters ?? {};
  const extra = Object.keys(given).filter((k) => !(k in declared));
  if (extra.length) throw validation(`Parameters: [${extra.join(', ')}] do not exist in the template`);
  const missing = Object.keys(declared).filter((k) => !(k in given) && declared[k]!.Default === undefined);
  if (missing.length) throw validation(`Parameters: [${missing.join(', ')}] must have values`);
  const values: Record<string, string> = {};
  for (const [k, p] of Object.entries(declared)) {
    const v = k in given ? given[k]! : String(p.Default);
    if (p.AllowedValues && !p.AllowedValues.map(String).includes(v)) throw validation(`Parameter '${k}' must be one of AllowedValues`);
    values[k] = v;
  }
  const iam = Object.values(t.Resources).filter((r) => r.Type.startsWith('AWS::IAM::'));
  const named = iam.some((r) => /"(RoleName|UserName|GroupName|ManagedPolicyName)"/.test(JSON.stringify(r.Properties ?? {})));
  const needed = named ? 'CAPABILITY_NAMED_IAM' : 'CAPABILITY_IAM';
  if (iam.length && !capabilities.includes(needed) && !capabilities.includes('CAPABILITY_NAMED_IAM'))
    throw new AwsError(400, 'InsufficientCapabilitiesException', `Requires capabilities : [${needed}]`);
  return values;
}

/** What evaluation needs of its stack. */
export interface EvalContext {
  region: string;
  accountId: string;
  stackName: string;
  stackId: string;
  parameters: Record<string, string>;
  template: Template;
  /** A resource's physical id (Ref), or undefined when it has none yet. */
  ref(id: string): string | undefined;
  /** A resource's attribute (GetAtt); throws when the resource has no such attribute. */
  attr(id: string, name: string): unknown;
}

export const NO_VALUE = Symbol('AWS::NoValue');

function ipv4(s: string) {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(s);
  if (!m || m.slice(1, 5).some((x) => Number(x) > 255) || Number(m[5]) > 32) return null;
  const addr = m.slice(1, 5).reduce((a, x) => a * 256 + Number(x), 0);
  return { addr, prefix: Number(m[5]) };
}
export const validCidr = (s: unknown, min = 16, max = 28) => {
  const c = typeof s === 'string' ? ipv4(s) : null;
  return !!c && c.prefix >= min && c.prefix <= max;
};
const dotted = (a: number) => [24, 16, 8, 0].map((s) => Math.floor(a / 2 ** s) % 256).join('.');

export function evaluate(v: unknown, c: EvalContext): unknown {
  if (Array.isArray(v)) return v.map((x) => evaluate(x, c)).filter((x) => x !== NO_VALUE);
  if (!v || typeof v !== 'object') return v;
  const entries = Object.entries(v);
  if (entries.length === 1) {
    const [k, raw] = entries[0]!;
    const arg = (i: number) => evaluate((raw as unknown[])[i], c);
    switch (k) {
      case 'Ref': {
        const id = String(raw);
        if (id === 'AWS::NoValue') return NO_VALUE;
        const pseudo: Record<string, string> = {
          'AWS::Region': c.region,
          'AWS::AccountId': c.accountId,
          'AWS::StackName': c.stackName,
          'AWS::StackId': c.stackId,
          'AWS::Partition': 'aws',
          'AWS::URLSuffix': 'amazonaws.com',
        };
        if (id in pseudo) return pseudo[id];
        if (id in c.parameters) {
          const type = c.template.Parameters?.[id]?.Type ?? 'String';
          return type.startsWith('List<') || type === 'CommaDelimitedList' ? c.parameters[id]!.split(',') : c.parameters[id];
        }
        return c.ref(id);
      }
      case 'Fn::GetAtt': {
        const [id, name] = Array.isArray(raw)
          ? raw.map((x) => String(evaluate(x, c)))
          : [String(raw).split('.')[0]!, String(raw).split('.').slice(1).join('.')];
        return c.attr(id!, name!);
      }
      case 'Fn::Join':
        return (arg(1) as unknown[]).map(String).join(String(arg(0)));
      case 'Fn::Select':
        return (arg(1) as unknown[])[Number(arg(0))];
      case 'Fn::Split':
        return String(arg(1)).split(String(arg(0)));
      case 'Fn::GetAZs': {
        const region = String(evaluate(raw, c)) || c.region;
        return ['a', 'b', 'c'].map((z) => `${region}${z}`);
      }
      case 'Fn::Cidr': {
        const block = ipv4(String(arg(0)));
        if (!block) throw new AwsError(400, 'ValidationError', `Template error: Fn::Cidr requires an IPv4 CIDR block, not ${String(arg(0))}`);
        const size = 2 ** Number(arg(2));
        return Array.from({ length: Number(arg(1)) }, (_, i) => `${dotted(block.addr + i * size)}/${32 - Number(arg(2))}`);
      }
      case 'Fn::Sub': {
        const [text, vars] = Array.isArray(raw) ? [String(raw[0]), evaluate(raw[1] ?? {}, c) as Record<string, unknown>] : [String(raw), {}];
        return text.replace(/\$\{(!?)([^}]*)\}/g, (_, bang: string, name: string) => {
          if (bang) return `\${${name}}`;
          if (name in vars) return String(vars[name]);
          const [id, ...attr] = name.split('.');
          return String(attr.length ? c.attr(id!, attr.join('.')) : evaluate({ Ref: id }, c));
        });
      }
      case 'Fn::Base64':
        return Buffer.from(String(evaluate(raw, c))).toString('base64');
      case 'Fn::ToJsonString':
        return JSON.stringify(evaluate(raw, c));
      case 'Fn::FindInMap':
        return c.template.Mappings?.[String(arg(0))]?.[String(arg(1))]?.[String(arg(2))];
      case 'Fn::ImportValue':
        throw new AwsError(400, 'ValidationError', `No export named ${String(evaluate(raw, c))} found`);
      case 'Fn::If':
        return condition(String((raw as unknown[])[0]), c) ? arg(1) : arg(2);
      case 'Fn::Equals':
        return String(arg(0)) === String(arg(1));
      case 'Fn::Not':
        return !arg(0);
      case 'Fn::And':
        return (raw as unknown[]).every((_, i) => arg(i));
      case 'Fn::Or':
        return (raw as unknown[]).some((_, i) => arg(i));
      case 'Condition':
        return condition(String(raw), c);
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of entries) {
    const e = evaluate(x, c);
    if (e !== NO_VALUE) out[k] = e;
  }
  return out;
}

export const condition = (name: string | undefined, c: EvalContext): boolean => name === undefined || !!evaluate(c.template.Conditions?.[name] ?? true, c);
