import { randomBytes, randomUUID } from 'node:crypto';
import { AwsError, members, queryAnswer, structs, list, type Answer, type Params, type XmlValue } from './protocol.js';
import { checkTemplate, condition, dependencies, evaluate, parseBody, validCidr, type EvalContext, type Template } from './cfn-template.js';
import { objectAt } from './s3.js';
import type { StandinWorld } from './state.js';

export const CLOUDFORMATION_NS = 'http://cloudformation.amazonaws.com/doc/2010-05-15/';

export interface CfnEvent {
  eventId: string;
  stackId: string;
  stackName: string;
  logicalId: string;
  physicalId: string;
  type: string;
  at: number;
  status: string;
  reason: string | null;
}
export interface CfnResource {
  logicalId: string;
  type: string;
  physicalId: string;
  status: string;
  reason: string | null;
  at: number;
  /** The properties last applied, evaluated. */
  props: unknown;
  /** The resources it waited for (deleted after them). */
  deps: string[];
  attrs: Record<string, unknown>;
}
interface Definition {
  body: string;
  template: Template;
  parameters: Record<string, string>;
  outputs: { key: string; value: string; description?: string }[];
}
export interface CfnStack extends Definition {
  id: string;
  name: string;
  region: string;
  parentId: string | null;
  rootId: string | null;
  tags: Record<string, string>;
  capabilities: string[];
  status: string;
  reason: string | null;
  created: number;
  updated: number | null;
  deleted: number | null;
  resources: Map<string, CfnResource>;
  /** Oldest first. */
  events: CfnEvent[];
  /** What an update replaced: its rollback goes back to it. */
  previous: Definition | null;
  /** Asked while an operation runs: CancelUpdateStack, or DeleteStack of a stack being created. */
  request: 'cancel' | 'delete' | null;
  /** Why the last operation failed, as an embedding stack tells it. */
  failure: string | null;
}

/** How the simulated operations advance: each resource takes `stepMs` from in progress to complete. */
export interface CfnSimulation {
  stepMs: number;
  closed: boolean;
  lastAt: number;
}

const rand = (n: number, hex = false) =>
  hex ? randomBytes(n).toString('hex').slice(0, n) : Array.from(randomBytes(n), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'[b % 36]).join('');
const clock = (sim: CfnSimulation) => (sim.lastAt = Math.max(Date.now(), sim.lastAt + 1));
const tick = (sim: CfnSimulation) => new Promise<void>((resolve) => setTimeout(resolve, sim.closed ? 0 : sim.stepMs));
const notExist = (ref: string) => new AwsError(400, 'ValidationError', `Stack with id ${ref} does not exist`);
const TERMINAL = (s: string) => !s.endsWith('_IN_PROGRESS');
const UPDATABLE = ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE'];
const EC2_PREFIX: Record<string, string> = {
  'AWS::EC2::VPC': 'vpc',
  'AWS::EC2::Subnet': 'subnet',
  'AWS::EC2::SecurityGroup': 'sg',
  'AWS::EC2::InternetGateway': 'igw',
  'AWS::EC2::RouteTable': 'rtb',
  'AWS::EC2::NatGateway': 'nat',
  'AWS::EC2::SubnetRouteTableAssociation': 'rtbassoc',
  'AWS::EC2::Instance': 'i',
};

export function findStack(w: StandinWorld, region: string, ref: string): CfnStack {
  const s = ref.startsWith('arn:') ? w.stacks.find((x) => x.id === ref) : w.stacks.find((x) => x.name === ref && x.region === region && x.deleted === null);
  if (!s) throw notExist(ref);
  return s;
}

function event(sim: CfnSimulation, s: CfnStack, e: Pick<CfnEvent, 'logicalId' | 'physicalId' | 'type' | 'status' | 'reason'>) {
  const at = clock(sim);
  // resource events are named by resource, status and time; the stack's own by a UUID
  const eventId = e.logicalId === s.name && e.type === 'AWS::CloudFormation::Stack' ? randomUUID() : `${e.logicalId}-${e.status}-${new Date(at).toISOString()}`;
  s.events.push({ ...e, eventId, stackId: s.id, stackName: s.name, at });
  return at;
}
function setStatus(sim: CfnSimulation, s: CfnStack, status: string, reason: string | null = null) {
  s.status = status;
  // a rollback's stack keeps telling why it rolled back
  s.reason = reason ?? (status.includes('ROLLBACK') ? s.reason : null);
  event(sim, s, { logicalId: s.name, physicalId: s.id, type: 'AWS::CloudFormation::Stack', status, reason });
}
function setResource(sim: CfnSimulation, s: CfnStack, r: CfnResource, status: string, reason: string | null = null) {
  r.status = status;
  r.reason = reason;
  r.at = event(sim, s, { logicalId: r.logicalId, physicalId: r.physicalId, type: r.type, status, reason });
}

function context(w: StandinWorld, s: CfnStack): EvalContext {
  return {
    region: s.region,
    accountId: w.accountId,
    stackName: s.name,
    stackId: s.id,
    parameters: s.parameters,
    template: s.template,
    ref: (id) => s.resources.get(id)?.physicalId,
    attr: (id, name) => {
      const r = s.resources.get(id);
      if (r && name in r.attrs) return r.attrs[name];
      if (r?.type === 'AWS::CloudFormation::Stack' && name.startsWith('Outputs.')) {
        const child = w.stacks.find((x) => x.id === r.physicalId);
        const out = child?.outputs.find((o) => o.key === name.slice('Outputs.'.length));
        if (out) return out.value;
      }
      throw new AwsError(400, 'ValidationError', `Template error: resource ${id} does not support attribute type ${name} in Fn::GetAtt`);
    },
  };
}

function physicalId(w: StandinWorld, s: CfnStack, id: string, type: string, props: Record<string, unknown>) {
  if (EC2_PREFIX[type]) return `${EC2_PREFIX[type]}-0${rand(16, true)}`;
  if (type === 'AWS::EC2::EIP') return `198.51.100.${1 + (randomBytes(1)[0]! % 250)}`;
  if (type === 'AWS::EC2::Route') return `${String(props.RouteTableId)}|${String(props.DestinationCidrBlock ?? props.DestinationIpv6CidrBlock)}`;
  if (type === 'AWS::EC2::VPCGatewayAttachment') return `IGW|${String(props.VpcId)}`;
  if (type === 'AWS::S3::Bucket') return String(props.BucketName ?? `${s.name}-${id}-${rand(12)}`.toLowerCase().slice(0, 63));
  if (type === 'AWS::IAM::Role') return String(props.RoleName ?? `${s.name}-${id}-${rand(12)}`.slice(0, 64));
  if (/^AWS::(ElasticLoadBalancingV2|ECS::(Service|TaskDefinition)|SNS::Topic)/.test(type)) {
    const service = type.split('::')[1]!.toLowerCase();
    return `arn:aws:${service}:${s.region}:${w.accountId}:${type.split('::')[2]!.toLowerCase()}/${s.name}-${id}/${rand(16, true)}`;
  }
  return `${s.name}-${id}-${rand(12)}`;
}
function attributes(w: StandinWorld, s: CfnStack, r: CfnResource, props: Record<string, unknown>): Record<string, unknown> {
  const arn = r.physicalId.startsWith('arn:') ? r.physicalId : `arn:aws:${r.type.split('::')[1]!.toLowerCase()}:${s.region}:${w.accountId}:${r.physicalId}`;
  const attrs: Record<string, unknown> = { Arn: arn };
  if (r.type === 'AWS::EC2::VPC') Object.assign(attrs, { VpcId: r.physicalId, CidrBlock: props.CidrBlock, DefaultSecurityGroup: `sg-0${rand(16, true)}` });
  if (r.type === 'AWS::EC2::EIP') Object.assign(attrs, { AllocationId: `eipalloc-0${rand(16, true)}`, PublicIp: r.physicalId });
  if (r.type === 'AWS::EC2::SecurityGroup') Object.assign(attrs, { GroupId: r.physicalId, VpcId: props.VpcId });
  if (r.type === 'AWS::EC2::Subnet') Object.assign(attrs, { SubnetId: r.physicalId, AvailabilityZone: props.AvailabilityZone, VpcId: props.VpcId });
  if (r.type === 'AWS::S3::Bucket')
    Object.assign(attrs, {
      Arn: `arn:aws:s3:::${r.physicalId}`,
      DomainName: `${r.physicalId}.s3.amazonaws.com`,
      RegionalDomainName: `${r.physicalId}.s3.${s.region}.amazonaws.com`,
    });
  return attrs;
}

/** Why the service would refuse a resource, as its own error text (the stack then rolls back). */
function refusal(w: StandinWorld, r: CfnResource, props: Record<string, unknown>): string | null {
  const request = `(Service: ${r.type.split('::')[1]}, Status Code: 400, Request ID: ${randomUUID()})`;
  if ((r.type === 'AWS::EC2::VPC' || r.type === 'AWS::EC2::Subnet') && !validCidr(props.CidrBlock))
    return `Value (${String(props.CidrBlock)}) for parameter cidrBlock is invalid. This is not a valid CIDR block. ${request}`;
  if (r.type === 'AWS::S3::Bucket' && w.buckets.some((b) => b.name === r.physicalId)) return `${r.physicalId} already exists`;
  return null;
}

type Mode = 'create' | 'update' | 'rollback';
interface Outcome {
  failed: string[];
  failedKind: 'create' | 'update';
}

/** Brings the stack's resources to its template, in waves of resources whose dependencies are done. */
async function converge(sim: CfnSimulation, w: StandinWorld, s: CfnStack, mode: Mode): Promise<Outcome> {
  const c = context(w, s);
  const wanted = Object.keys(s.template.Resources).filter((id) => condition(s.template.Resources[id]!.Condition, c));
  const done = new Set<string>();
  const outcome: Outcome = { failed: [], failedKind: 'create' };
  let pending = wanted;
  while (pending.length && !outcome.failed.length && (mode === 'rollback' || !s.request)) {
    const ready = pending.filter((id) => dependencies(s.template, id).every((d) => done.has(d) || !wanted.includes(d)));
    if (!ready.length) break;
    pending = pending.filter((id) => !ready.includes(id));
    const results = await Promise.all(ready.map((id) => step(sim, w, s, id, c, mode)));
    results.forEach((r, i) => {
      if (r === 'ok') done.add(ready[i]!);
      else {
        outcome.failed.push(ready[i]!);
        outcome.failedKind = r;
      }
    });
  }
  return outcome;
}

async function step(sim: CfnSimulation, w: StandinWorld, s: CfnStack, id: string, c: EvalContext, mode: Mode): Promise<'ok' | 'create' | 'update'> {
  const def = s.template.Resources[id]!;
  let existing = s.resources.get(id);
  let props: Record<string, unknown>;
  let evalError: string | null = null;
  try {
    props = evaluate(def.Properties ?? {}, c) as Record<string, unknown>;
  } catch (err) {
    props = {};
    evalError = (err as Error).message;
  }
  const nested = def.Type === 'AWS::CloudFormation::Stack';
  if (existing && existing.status === 'CREATE_FAILED') existing = undefined;
  if (!existing) {
    const r: CfnResource = {
      logicalId: id,
      type: def.Type,
      physicalId: '',
      status: '',
      reason: null,
      at: 0,
      props,
      deps: dependencies(s.template, id),
      attrs: {},
    };
    s.resources.set(id, r);
    setResource(sim, s, r, 'CREATE_IN_PROGRESS');
    if (evalError) return failCreate(sim, s, r, evalError);
    if (nested) {
      let child: CfnStack;
      try {
        child = nestedStack(w, s, id, props);
      } catch (err) {
        return failCreate(sim, s, r, (err as Error).message);
      }
      r.physicalId = child.id;
      setResource(sim, s, r, 'CREATE_IN_PROGRESS', 'Resource creation Initiated');
      const end = await createStack(sim, w, child);
      if (end !== 'CREATE_COMPLETE')
        return failCreate(
          sim,
          s,
          r,
          s.request ? 'Resource creation cancelled' : `Embedded stack ${child.id} was not successfully created: ${child.failure ?? end}`,
        );
    } else {
      r.physicalId = physicalId(w, s, id, def.Type, props);
      setResource(sim, s, r, 'CREATE_IN_PROGRESS', 'Resource creation Initiated');
      await tick(sim);
      const refused = refusal(w, r, props);
      if (refused) return failCreate(sim, s, r, refused);
      if (def.Type === 'AWS::S3::Bucket') w.buckets.push({ name: r.physicalId, region: s.region, objects: new Map(), lifecycle: null });
      r.attrs = attributes(w, s, r, props);
    }
    setResource(sim, s, r, 'CREATE_COMPLETE');
    return 'ok';
  }
  const r = existing;
  const changed = JSON.stringify(props) !== JSON.stringify(r.props) || r.type !== def.Type || r.status === 'UPDATE_FAILED';
  if (!changed && !nested) return 'ok';
  if (nested) {
    const child = w.stacks.find((x) => x.id === r.physicalId)!;
    const applied = JSON.stringify(props) === JSON.stringify(r.props);
    // a rollback takes back what this update changed; a nested stack that rolled itself back stays as it is
    if (mode === 'rollback' && (applied || child.status !== 'UPDATE_COMPLETE')) {
      if (r.status !== 'UPDATE_FAILED') return 'ok';
      setResource(sim, s, r, 'UPDATE_IN_PROGRESS');
      setResource(sim, s, r, 'UPDATE_COMPLETE');
      return 'ok';
    }
    setResource(sim, s, r, 'UPDATE_IN_PROGRESS');
    let end: string;
    try {
      end =
        mode === 'rollback' ? await rollbackStack(sim, w, child, 'Update rollback requested by the parent stack') : await updateNested(sim, w, child, props);
    } catch (err) {
      setResource(sim, s, r, 'UPDATE_FAILED', (err as Error).message);
      return 'update';
    }
    if (mode !== 'rollback' && end !== 'UPDATE_COMPLETE') {
      setResource(
        sim,
        s,
        r,
        'UPDATE_FAILED',
        s.request === 'cancel'
          ? 'Resource update cancelled'
          : `Embedded stack ${child.id} was not successfully updated. Currently in ${end} with reason: ${child.failure ?? ''}`,
      );
      return 'update';
    }
  } else {
    setResource(sim, s, r, 'UPDATE_IN_PROGRESS');
    await tick(sim);
    const refused = mode === 'rollback' ? null : (evalError ?? refusal(w, r, props));
    if (refused) {
      setResource(sim, s, r, 'UPDATE_FAILED', refused);
      return 'update';
    }
    r.attrs = attributes(w, s, r, props);
  }
  r.props = props;
  setResource(sim, s, r, 'UPDATE_COMPLETE');
  return 'ok';
}

function failCreate(sim: CfnSimulation, s: CfnStack, r: CfnResource, reason: string): 'create' {
  setResource(sim, s, r, 'CREATE_FAILED', reason);
  return 'create';
}

/** Deletes the resources not kept, those depending on others first. A stack's delete keeps their records (DELETE_COMPLETE). */
async function remove(sim: CfnSimulation, w: StandinWorld, s: CfnStack, keep: Set<string>, keepRecords: boolean) {
  let left = [...s.resources.values()].filter((r) => !keep.has(r.logicalId) && r.status !== 'DELETE_COMPLETE');
  while (left.length) {
    const ready = left.filter((r) => !left.some((o) => o.deps.includes(r.logicalId)));
    const wave = ready.length ? ready : left;
    left = left.filter((r) => !wave.includes(r));
    await Promise.all(
      wave.map(async (r) => {
        if (r.physicalId) {
          setResource(sim, s, r, 'DELETE_IN_PROGRESS');
          const child = r.type === 'AWS::CloudFormation::Stack' ? w.stacks.find((x) => x.id === r.physicalId) : undefined;
          if (child && child.deleted === null) await deleteStack(sim, w, child);
          else await tick(sim);
          if (r.type === 'AWS::S3::Bucket' && r.status !== 'CREATE_FAILED') w.buckets = w.buckets.filter((b) => b.name !== r.physicalId);
        }
        setResource(sim, s, r, 'DELETE_COMPLETE');
        if (!keepRecords) s.resources.delete(r.logicalId);
      }),
    );
  }
}

function outputs(w: StandinWorld, s: CfnStack) {
  const c = context(w, s);
  s.outputs = Object.entries(s.template.Outputs ?? {})
    .filter(([, o]) => condition(o.Condition, c))
    .map(([key, o]) => ({ key, value: String(evaluate(o.Value, c)), ...(o.Description ? { description: o.Description } : {}) }));
}

const failedReason = (o: Outcome) => `The following resource(s) failed to ${o.failedKind}: [${o.failed.join(', ')}]. `;

async function createStack(sim: CfnSimulation, w: StandinWorld, s: CfnStack): Promise<string> {
  setStatus(sim, s, 'CREATE_IN_PROGRESS', 'User Initiated');
  const o = await converge(sim, w, s, 'create');
  if (s.request === 'delete') return deleteStack(sim, w, s);
  if (!o.failed.length) {
    try {
      outputs(w, s);
      setStatus(sim, s, 'CREATE_COMPLETE');
      return s.status;
    } catch (err) {
      o.failed.push(s.name);
      s.failure = (err as Error).message;
    }
  }
  s.failure ??= failedReason(o);
  setStatus(sim, s, 'ROLLBACK_IN_PROGRESS', `${s.failure}Rollback requested by user.`);
  await remove(sim, w, s, new Set(), true);
  setStatus(sim, s, 'ROLLBACK_COMPLETE');
  return s.status;
}

async function updateStack(sim: CfnSimulation, w: StandinWorld, s: CfnStack): Promise<string> {
  s.failure = null;
  setStatus(sim, s, 'UPDATE_IN_PROGRESS', 'User Initiated');
  const o = await converge(sim, w, s, 'update');
  if (!o.failed.length && !s.request) {
    setStatus(sim, s, 'UPDATE_COMPLETE_CLEANUP_IN_PROGRESS');
    await remove(sim, w, s, new Set(Object.keys(s.template.Resources)), false);
    outputs(w, s);
    // kept: an embedding stack's rollback takes this stack back to it
    setStatus(sim, s, 'UPDATE_COMPLETE');
    return s.status;
  }
  return rollbackStack(sim, w, s, s.request === 'cancel' ? 'Resource update cancelled' : failedReason(o));
}

/** An update rolled back: the previous template and parameters again, what the update added deleted. */
async function rollbackStack(sim: CfnSimulation, w: StandinWorld, s: CfnStack, reason: string): Promise<string> {
  s.request = null;
  s.failure = reason;
  if (s.previous) Object.assign(s, s.previous);
  s.previous = null;
  setStatus(sim, s, 'UPDATE_ROLLBACK_IN_PROGRESS', reason);
  await converge(sim, w, s, 'rollback');
  setStatus(sim, s, 'UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS');
  await remove(sim, w, s, new Set(Object.keys(s.template.Resources)), false);
  setStatus(sim, s, 'UPDATE_ROLLBACK_COMPLETE');
  return s.status;
}

async function deleteStack(sim: CfnSimulation, w: StandinWorld, s: CfnStack): Promise<string> {
  s.request = null;
  setStatus(sim, s, 'DELETE_IN_PROGRESS', 'User Initiated');
  await remove(sim, w, s, new Set(), true);
  s.deleted = clock(sim);
  setStatus(sim, s, 'DELETE_COMPLETE');
  return s.status;
}

/** Template and parameters of a nested stack from its resource's properties (TemplateURL: an object of the stand-in's S3). */
function definitionOf(w: StandinWorld, props: Record<string, unknown>, capabilities: string[]): Omit<Definition, 'outputs'> {
  const url = String(props.TemplateURL ?? '');
  const object = objectAt(w, url);
  if (!object) throw new AwsError(400, 'ValidationError', 'TemplateURL must reference a valid S3 object to which you have access.');
  const template = parseBody(object.body);
  const given = Object.fromEntries(
    Object.entries((props.Parameters ?? {}) as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  );
  return { body: object.body, template, parameters: checkTemplate(template, given, capabilities) };
}

function nestedStack(w: StandinWorld, parent: CfnStack, id: string, props: Record<string, unknown>): CfnStack {
  const d = definitionOf(w, props, parent.capabilities);
  const name = `${parent.name}-${id}-${rand(12)}`;
  const child = newStack(w, parent.region, name, { ...d, outputs: [] }, tagsOf(props.Tags, parent.tags), parent.capabilities);
  child.parentId = parent.id;
  child.rootId = parent.rootId ?? parent.id;
  return child;
}

async function updateNested(sim: CfnSimulation, w: StandinWorld, child: CfnStack, props: Record<string, unknown>): Promise<string> {
  const d = definitionOf(w, props, child.capabilities);
  child.previous = { body: child.body, template: child.template, parameters: child.parameters, outputs: child.outputs };
  Object.assign(child, d);
  child.updated = clock(sim);
  return updateStack(sim, w, child);
}

const tagsOf = (v: unknown, fallback: Record<string, string>) =>
  Array.isArray(v) ? Object.fromEntries((v as { Key: string; Value: string }[]).map((t) => [t.Key, String(t.Value)])) : fallback;

function newStack(w: StandinWorld, region: string, name: string, d: Definition, tags: Record<string, string>, capabilities: string[]): CfnStack {
  const s: CfnStack = {
    ...d,
    id: `arn:aws:cloudformation:${region}:${w.accountId}:stack/${name}/${randomUUID()}`,
    name,
    region,
    parentId: null,
    rootId: null,
    tags,
    capabilities,
    status: 'CREATE_IN_PROGRESS',
    reason: null,
    created: Date.now(),
    updated: null,
    deleted: null,
    resources: new Map(),
    events: [],
    previous: null,
    request: null,
    failure: null,
  };
  w.stacks.push(s);
  return s;
}

/** Runs an operation on its own; the calls answer at once, as CloudFormation's do. */
const detach = (op: Promise<unknown>) => void op.catch((err) => console.error('[aws stand-in] CloudFormation operation failed', err));

function requestedDefinition(
  w: StandinWorld,
  p: Params,
  previous?: CfnStack,
): Omit<Definition, 'outputs'> & { tags: Record<string, string>; capabilities: string[] } {
  const capabilities = list(p, 'Capabilities');
  let body: string;
  if (p.TemplateBody !== undefined) {
    if (p.TemplateBody.length > 51200)
      throw new AwsError(
        400,
        'ValidationError',
        "1 validation error detected: Value at 'templateBody' failed to satisfy constraint: Member must have length less than or equal to 51200",
      );
    body = p.TemplateBody;
  } else if (p.TemplateURL !== undefined) {
    const o = objectAt(w, p.TemplateURL);
    if (!o) throw new AwsError(400, 'ValidationError', 'TemplateURL must reference a valid S3 object to which you have access.');
    body = o.body;
  } else if (previous && p.UsePreviousTemplate === 'true') body = previous.body;
  else throw new AwsError(400, 'ValidationError', 'Either Template URL or Template Body must be specified.');
  const template = parseBody(body);
  const given: Record<string, string> = {};
  for (const x of structs(p, 'Parameters')) {
    if (x.UsePreviousValue === 'true' && previous) given[x.ParameterKey!] = previous.parameters[x.ParameterKey!] ?? '';
    else given[x.ParameterKey!] = x.ParameterValue ?? '';
  }
  const tags = Object.fromEntries(structs(p, 'Tags').map((t) => [t.Key!, t.Value ?? '']));
  return {
    body,
    template,
    parameters: checkTemplate(template, given, capabilities),
    tags: structs(p, 'Tags').length || !previous ? tags : previous.tags,
    capabilities,
  };
}

const NAME = /^[a-zA-Z][-a-zA-Z0-9]{0,127}$/;
const iso = (t: number | null) => (t === null ? undefined : new Date(t).toISOString());
const tagXml = (tags: Record<string, string>) => members(Object.entries(tags).map(([Key, Value]) => ({ Key, Value })));

function stackXml(s: CfnStack): XmlValue {
  const noEcho = (k: string) => ['true', true].includes(s.template.Parameters?.[k]?.NoEcho as string | boolean);
  return {
    StackId: s.id,
    StackName: s.name,
    Description: s.template.Description,
    Parameters: members(Object.entries(s.parameters).map(([k, v]) => ({ ParameterKey: k, ParameterValue: noEcho(k) ? '****' : v }))),
    CreationTime: iso(s.created),
    DeletionTime: iso(s.deleted),
    LastUpdatedTime: iso(s.updated),
    RollbackConfiguration: {},
    StackStatus: s.status,
    StackStatusReason: s.reason ?? undefined,
    DisableRollback: false,
    NotificationARNs: members([]),
    Capabilities: members(s.capabilities),
    Outputs: members(s.outputs.map((o) => ({ OutputKey: o.key, OutputValue: o.value, Description: o.description }))),
    Tags: tagXml(s.tags),
    EnableTerminationProtection: false,
    ParentId: s.parentId ?? undefined,
    RootId: s.rootId ?? undefined,
    DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
  };
}
/** What an event and a resource tell alike of a resource. */
const statusXml = (x: { logicalId: string; physicalId: string; type: string; at: number; status: string; reason: string | null }) => ({
  LogicalResourceId: x.logicalId,
  PhysicalResourceId: x.physicalId || undefined,
  ResourceType: x.type,
  Timestamp: iso(x.at),
  ResourceStatus: x.status,
  ResourceStatusReason: x.reason ?? undefined,
});
const EVENTS_PAGE = 100;

/** CloudFormation (AWS query, 2010-05-15): stacks run their operations over time, with events in CloudFormation's order and shape. */
export function cloudformation(w: StandinWorld, sim: CfnSimulation, region: string, action: string, p: Params): Answer {
  const answer = (result: Record<string, XmlValue> | null) => queryAnswer(CLOUDFORMATION_NS, action, result);
  const stackName = p.StackName ?? '';
  switch (action) {
    case 'CreateStack': {
      if (!NAME.test(stackName))
        throw new AwsError(
          400,
          'ValidationError',
          `1 validation error detected: Value '${stackName}' at 'stackName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z][-a-zA-Z0-9]*|arn:[-a-zA-Z0-9:/._+]*`,
        );
      if (w.stacks.some((x) => x.name === stackName && x.region === region && x.deleted === null))
        throw new AwsError(400, 'AlreadyExistsException', `Stack [${stackName}] already exists`);
      const d = requestedDefinition(w, p);
      const s = newStack(w, region, stackName, { ...d, outputs: [] }, d.tags, d.capabilities);
      detach(createStack(sim, w, s));
      return answer({ StackId: s.id });
    }
    case 'UpdateStack': {
      const s = findStack(w, region, stackName);
      if (s.deleted !== null) throw notExist(stackName);
      if (!UPDATABLE.includes(s.status)) throw new AwsError(400, 'ValidationError', `Stack:${s.id} is in ${s.status} state and can not be updated.`);
      const d = requestedDefinition(w, p, s);
      if (d.body === s.body && JSON.stringify(d.parameters) === JSON.stringify(s.parameters) && JSON.stringify(d.tags) === JSON.stringify(s.tags))
        throw new AwsError(400, 'ValidationError', 'No updates are to be performed.');
      s.previous = { body: s.body, template: s.template, parameters: s.parameters, outputs: s.outputs };
      Object.assign(s, { body: d.body, template: d.template, parameters: d.parameters, tags: d.tags, capabilities: d.capabilities, updated: clock(sim) });
      s.status = 'UPDATE_IN_PROGRESS';
      detach(updateStack(sim, w, s));
      return answer({ StackId: s.id });
    }
    case 'DeleteStack': {
      const s = stackName.startsWith('arn:')
        ? w.stacks.find((x) => x.id === stackName)
        : w.stacks.find((x) => x.name === stackName && x.region === region && !x.deleted);
      if (!s || s.deleted !== null || s.status === 'DELETE_IN_PROGRESS' || s.request === 'delete') return answer(null);
      if (s.status === 'CREATE_IN_PROGRESS') {
        // the create stops after the resources it is making, then the stack is deleted; its nested stacks likewise
        const stop = (x: CfnStack) => {
          x.request = 'delete';
          for (const c of w.stacks) if (c.parentId === x.id && c.status === 'CREATE_IN_PROGRESS') stop(c);
        };
        stop(s);
        return answer(null);
      }
      if (!TERMINAL(s.status)) throw new AwsError(400, 'ValidationError', `Stack [${s.name}] cannot be deleted while in status ${s.status}`);
      detach(deleteStack(sim, w, s));
      return answer(null);
    }
    case 'CancelUpdateStack': {
      const s = findStack(w, region, stackName);
      if (s.status !== 'UPDATE_IN_PROGRESS' || s.request)
        throw new AwsError(400, 'ValidationError', 'CancelUpdateStack cannot be called from current stack status');
      const cancel = (x: CfnStack) => {
        x.request = 'cancel';
        for (const c of w.stacks) if (c.parentId === x.id && c.status === 'UPDATE_IN_PROGRESS') cancel(c);
      };
      cancel(s);
      return answer(null);
    }
    case 'ContinueUpdateRollback': {
      const s = findStack(w, region, stackName);
      if (s.status !== 'UPDATE_ROLLBACK_FAILED')
        throw new AwsError(400, 'ValidationError', 'ContinueUpdateRollback cannot be called from current stack status');
      detach(rollbackStack(sim, w, s, s.reason ?? 'Continue update rollback requested'));
      return answer({});
    }
    case 'DescribeStacks': {
      const stacks = stackName ? [findStack(w, region, stackName)] : w.stacks.filter((x) => x.region === region && x.deleted === null);
      return answer({ Stacks: members(stacks.map(stackXml)) });
    }
    case 'ListStacks': {
      const filter = list(p, 'StackStatusFilter');
      const stacks = w.stacks.filter((x) => x.region === region && (!filter.length || filter.includes(x.status)));
      return answer({
        StackSummaries: members(
          stacks.map((s) => ({
            StackId: s.id,
            StackName: s.name,
            TemplateDescription: s.template.Description,
            CreationTime: iso(s.created),
            LastUpdatedTime: iso(s.updated),
            DeletionTime: iso(s.deleted),
            StackStatus: s.status,
            StackStatusReason: s.reason ?? undefined,
            ParentId: s.parentId ?? undefined,
            RootId: s.rootId ?? undefined,
            DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
          })),
        ),
      });
    }
    case 'DescribeStackEvents': {
      const s = findStack(w, region, stackName);
      const newest = [...s.events].reverse();
      const from = Number(p.NextToken ?? 0);
      const page = newest.slice(from, from + EVENTS_PAGE);
      return answer({
        StackEvents: members(page.map((e) => ({ StackId: e.stackId, EventId: e.eventId, StackName: e.stackName, ...statusXml(e) }))),
        NextToken: from + EVENTS_PAGE < newest.length ? String(from + EVENTS_PAGE) : undefined,
      });
    }
    case 'DescribeStackResources': {
      const s = findStack(w, region, stackName);
      const wanted = p.LogicalResourceId;
      return answer({
        StackResources: members(
          [...s.resources.values()]
            .filter((r) => !wanted || r.logicalId === wanted)
            .map((r) => ({ StackName: s.name, StackId: s.id, ...statusXml(r), DriftInformation: { StackResourceDriftStatus: 'NOT_CHECKED' } })),
        ),
      });
    }
    case 'GetTemplate': {
      const s = findStack(w, region, stackName);
      return answer({ TemplateBody: s.body, StagesAvailable: members(['Original', 'Processed']) });
    }
    default:
      // change sets (CreateChangeSet, ExecuteChangeSet, REVIEW_IN_PROGRESS) too: Gantry's engine does not use them (cloudformation-engine.ts)
      throw new AwsError(400, 'InvalidAction', `The action ${action} is not valid for this web service.`);
  }
}
