import {
  CreateStackCommand,
  UpdateStackCommand,
  DeleteStackCommand,
  DescribeStacksCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  CancelUpdateStackCommand,
  ContinueUpdateRollbackCommand,
  type Stack,
  type StackEvent as CfnEvent,
  type Capability,
  type Parameter,
} from '@aws-sdk/client-cloudformation';
import type { CfnClients } from './clients.js';
import { toStackEvent, type StackEventView } from './events.js';

/** Nested stacks may hold IAM roles (EKS, ECS), and templates may use macros. */
export const CAPABILITIES: Capability[] = ['CAPABILITY_IAM', 'CAPABILITY_NAMED_IAM', 'CAPABILITY_AUTO_EXPAND'];
export const TERMINAL = (status: string) => !status.endsWith('_IN_PROGRESS');

/** CloudFormation answers a missing stack with a ValidationError "Stack with id X does not exist". */
export const notFound = (err: unknown) => /does not exist/.test((err as Error).message ?? '');
export const noUpdates = (err: unknown) => /No updates are to be performed/.test((err as Error).message ?? '');

export async function describeStack(c: CfnClients, stackName: string): Promise<Stack | null> {
  try {
    return (await c.cfn.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0] ?? null;
  } catch (err) {
    if (notFound(err)) return null;
    throw err;
  }
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

export const stackEvents = async (c: CfnClients, stackName: string): Promise<StackEventView[]> =>
  (await rawStackEvents(c, stackName)).map((e) => toStackEvent(e));

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

export class PollingAborted extends Error {
  override name = 'AbortError';
  constructor(readonly lastStatus: string | null) {
    super('Stopped following the stack');
  }
}

export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * Polls the stack until a terminal status, telling each status change and each new event once
 * (oldest first). `seen` holds event ids not to tell (those from before the operation). With a
 * `signal`, an abort stops the polling (PollingAborted); the stack itself carries on.
 */
export async function waitForStack(
  c: CfnClients,
  o: {
    stackName: string;
    pollMs?: number;
    signal?: AbortSignal;
    seen?: Set<string>;
    onStatus?: (status: string) => Promise<void> | void;
    onEvent?: (e: StackEventView) => void;
    /** Called each poll after the parent's events, for callers that follow nested stacks too. */
    onPoll?: (stack: Stack | null) => Promise<void>;
  },
): Promise<string> {
  const seen = o.seen ?? new Set<string>();
  let last: string | null = null;
  for (;;) {
    if (o.signal?.aborted) throw new PollingAborted(last);
    const stack = await describeStack(c, o.stackName);
    const status = stack?.StackStatus ?? 'DELETE_COMPLETE';
    for (const e of (await rawStackEvents(c, o.stackName)).reverse()) {
      if (!e.EventId || seen.has(e.EventId)) continue;
      seen.add(e.EventId);
      o.onEvent?.(toStackEvent(e));
    }
    await o.onPoll?.(stack);
    if (status !== last) {
      last = status;
      await o.onStatus?.(status);
    }
    if (TERMINAL(status)) return status;
    await sleep(o.pollMs ?? 3000, o.signal);
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
