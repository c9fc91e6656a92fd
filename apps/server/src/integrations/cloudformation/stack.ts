import {
  CreateStackCommand,
  UpdateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  ListStacksCommand,
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  type Stack,
  type StackEvent as CfnEvent,
  type Capability,
  type Parameter,
} from '@aws-sdk/client-cloudformation';
import type { CfnClients } from './clients.js';
import { toStackEvent, errorLogsByResource, type ErrorLogs, type OwnedEvent, type StackEventView } from './events.js';

/** Nested stacks may hold IAM roles (EKS, ECS), and templates may use macros. */
export const CAPABILITIES: Capability[] = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];
export const TERMINAL = (status: string) => !status.endsWith('_IN_PROGRESS');

/** CloudFormation answers a missing stack with a ValidationError "Stack with id X does not exist". */
export const notFound = (err: unknown) => /does not exist/.test((err as Error).message ?? '');
export const noUpdates = (err: unknown) => /No updates are to be performed/.test((err as Error).message ?? '');

export async function describeStack(c: CfnClients, stackName: string): Promise<Stack | null> {
  try {
    return (await c.cfn.send(new DescribeStacksCommand({ StackName: stackName })))?.Stacks?.[0] ?? null;
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
}

/**
 * The id of the newest deleted stack of this name (no parent), or null. A deleted stack answers only by its id
 * (CloudFormation keeps it 90 days): after an undeploy, its events are read by it.
 */
export async function deletedStackId(c: CfnClients, stackName: string): Promise<string | null> {
  let newest: { id: string; at: number } | null = null;
  let NextToken: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const res = await c.cfn.send(new ListStacksCommand({ StackStatusFilter: ['DELETE_COMPLETE'], ...(NextToken ? { NextToken } : {}) }));
    for (const s of res?.StackSummaries ?? []) {
      if (s.StackName !== stackName || s.ParentId || !s.StackId) continue;
      const at = (s.DeletionTime ?? s.CreationTime)?.getTime() ?? 0;
      if (!newest || at > newest.at) newest = { id: s.StackId, at };
    }
    NextToken = res?.NextToken;
    if (!NextToken) break;
  }
  return newest?.id ?? null;
}

/** The newest page of a stack's events (newest first), as CloudFormation answers them. */
export async function rawStackEvents(c: CfnClients, stackName: string): Promise<CfnEvent[]> {
  try {
    return (await c.cfn.send(new DescribeStackEventsCommand({ StackName: stackName })))?.StackEvents ?? [];
  } catch (err) {
    if (notFound(err)) return [];
    throw err;
  }
}

/** The ids of a stack's events so far: what the following of its next operation leaves out (`seen`). */
export const eventIdsOf = async (c: CfnClients, stackRef: string) =>
  new Set((await rawStackEvents(c, stackRef)).flatMap((e) => (e.EventId ? [e.EventId] : [])));

const tagList = (tags: Record<string, string>) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

/** CreateStack or UpdateStack; false when CloudFormation has nothing to update. */
export async function createOrUpdate(
  c: CfnClients,
  o: { stackName: string; templateBody: string; tags: Record<string, string>; parameters?: Parameter[]; exists?: boolean },
): Promise<boolean> {
  const exists = o.exists ?? (await describeStack(c, o.stackName).then((s) => !!s && s.StackStatus !== 'DELETE_COMPLETE'));
  const input = {
    StackName: o.stackName,
    TemplateBody: o.templateBody,
    Capabilities: CAPABILITIES,
    Tags: tagList(o.tags),
    ...(o.parameters?.length ? { Parameters: o.parameters } : {}),
  };
  if (!exists) {
    await c.cfn.send(new CreateStackCommand(input));
    return true;
  }
  try {
    await c.cfn.send(new UpdateStackCommand(input));
    return true;
  } catch (err) {
    if (noUpdates(err)) return false;
    throw err;
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Following {
  /** Each new stack status (CloudFormation's own: CREATE_IN_PROGRESS, UPDATE_ROLLBACK_FAILED …). */
  onStatus?: (status: string) => Promise<void> | void;
  /** New events of the stack and of its nested stacks, oldest first, each told once. */
  onEvents?: (events: StackEventView[]) => Promise<void> | void;
}

export interface StackOutcome {
  /** The final stack status. */
  status: string;
  /** Whether it is the end the operation aims at (a cancelled create ending DELETE_COMPLETE is no deploy success). */
  succeeded: boolean;
  /** The status of each resource's nested stack. */
  resources: Record<string, string>;
  /** Error events by resource (the deployment's `logs`). */
  logs: ErrorLogs;
}

const byTime = (a: OwnedEvent, b: OwnedEvent) => (a.event.Timestamp?.getTime() ?? 0) - (b.event.Timestamp?.getTime() ?? 0);
const view = (o: OwnedEvent) => toStackEvent(o.event, o.resource ?? undefined);

/**
 * Follows a stack (by name or id) and its nested stacks to a terminal status. `seen`: the
 * parent's events from before this operation. A nested stack's older history is left out by
 * time: it starts at the parent's first new event (CloudFormation's clock, not ours). `goal`: the
 * statuses that count as the operation's success.
 */
export async function followStack(
  c: CfnClients,
  ref: string,
  stackName: string,
  f: Following,
  seen: Set<string>,
  goal: readonly string[],
  pollMs: number,
): Promise<StackOutcome> {
  let stackRef = ref;
  const owned: OwnedEvent[] = [];
  // nested stacks whose events were read at a terminal status: read again only when it changes (a rollback)
  const settled = new Map<string, string>();
  let nested: NestedStack[] = [];
  let since: number | null = null;
  let last: string | null = null;
  const take = (e: CfnEvent) => !!e.EventId && !seen.has(e.EventId) && !!seen.add(e.EventId);
  for (;;) {
    const stack = await describeStack(c, stackRef);
    // by id from here: a deleted stack still answers by its id (a cancelled create ends deleted)
    if (stack?.StackId) stackRef = stack.StackId;
    const status = stack?.StackStatus ?? 'DELETE_COMPLETE';
    const fresh: OwnedEvent[] = (await rawStackEvents(c, stackRef))
      .reverse()
      .filter(take)
      .map((event) => ({ resource: null, event }));
    for (const { event } of fresh) since = Math.min(since ?? Infinity, event.Timestamp?.getTime() ?? Infinity);
    // a deleted stack still answers by its id, with its resources' last statuses
    if (stack) nested = await nestedStacks(c, stackRef);
    for (const n of nested) {
      if (!n.stackId.startsWith('arn:') || settled.get(n.stackId) === n.status || since === null) continue;
      for (const event of (await rawStackEvents(c, n.stackId)).reverse()) {
        // the child's events about itself repeat what the parent says of the nested stack
        if (event.PhysicalResourceId === n.stackId || (event.Timestamp?.getTime() ?? 0) < since) continue;
        if (take(event)) fresh.push({ resource: n.name, event });
      }
      if (TERMINAL(n.status)) settled.set(n.stackId, n.status);
    }
    owned.push(...fresh);
    if (fresh.length) await f.onEvents?.(fresh.sort(byTime).map(view));
    if (status !== last) {
      last = status;
      await f.onStatus?.(status);
    }
    if (TERMINAL(status)) {
      return {
        status,
        succeeded: goal.includes(status),
        resources: Object.fromEntries(nested.map((n) => [n.name, n.status])),
        logs: errorLogsByResource(owned, stackName),
      };
    }
    await sleep(pollMs);
  }
}

export const deleteStack = (c: CfnClients, stackName: string) => c.cfn.send(new DeleteStackCommand({ StackName: stackName }));
export const cancelUpdate = (c: CfnClients, stackName: string) => c.cfn.send(new CancelUpdateStackCommand({ StackName: stackName }));
export const continueRollback = (c: CfnClients, stackName: string, resourcesToSkip?: string[]) =>
  c.cfn.send(new ContinueUpdateRollbackCommand({ StackName: stackName, ...(resourcesToSkip?.length ? { ResourcesToSkip: resourcesToSkip } : {}) }));

export interface NestedStack {
  name: string;
  stackId: string;
  status: string;
  reason: string | null;
}

/** The nested stacks of the environment's stack: resource name → physical id and status. */
export async function nestedStacks(c: CfnClients, stackName: string): Promise<NestedStack[]> {
  try {
    const res = (await c.cfn.send(new DescribeStackResourcesCommand({ StackName: stackName })))?.StackResources ?? [];
    return res
      .filter((r) => r.ResourceType === 'AWS::CloudFormation::Stack')
      .map((r) => ({
        name: r.LogicalResourceId ?? '',
        stackId: r.PhysicalResourceId ?? '',
        status: r.ResourceStatus ?? '',
        reason: r.ResourceStatusReason ?? null,
      }));
  } catch (err) {
    if (notFound(err)) return [];
    throw err;
  }
}

/** The newest events of the stack and of its nested stacks (`resource/LogicalId`), newest first. */
export async function stackAndNestedEvents(c: CfnClients, stackName: string): Promise<StackEventView[]> {
  const owned: OwnedEvent[] = (await rawStackEvents(c, stackName)).map((event) => ({ resource: null, event }));
  for (const n of await nestedStacks(c, stackName)) {
    if (!n.stackId.startsWith('arn:')) continue;
    for (const event of await rawStackEvents(c, n.stackId)) if (event.PhysicalResourceId !== n.stackId) owned.push({ resource: n.name, event });
  }
  return owned.sort(byTime).reverse().map(view);
}
