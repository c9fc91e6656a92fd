import { ENVIRONMENT_TAG_KEY } from '@gantry/contracts';
import { clientsFor, toSession, type AwsCredentials, type AwsEnvCredentials, type AwsSession, type CfnClients } from './clients.js';
import { objectUrl, templateBucketFor, templateKey, uploadTemplates } from './bucket.js';
import { buildParentTemplate, OUTPUT_SOURCE, type NestedResource } from './parent-template.js';
import {
  describeStack,
  eventIdsOf,
  createOrUpdate,
  deleteStack,
  cancelUpdate,
  continueRollback as continueUpdateRollback,
  nestedStacks,
  followStack,
  stackAndNestedEvents,
  type Following,
  type StackOutcome,
} from './stack.js';
import type { StackEventView } from './events.js';
export type { Following, StackOutcome };

/** Which stack, where, as whom. `credentials`: either form (`credentialsFor`'s env vars are fine). */
export interface StackTarget {
  stackName: string;
  region: string;
  credentials: AwsCredentials | AwsEnvCredentials;
}

export interface DeployInput extends StackTarget, Following {
  awsAccountId: string;
  stageId: string;
  /** Names the folder of the uploaded templates: `<stageId>/<deploymentId>/<resource>.template`. */
  deploymentId: string;
  resources: NestedResource[];
  /** More stack tags; `gantry:environment` = stageId is always set. */
  tags?: Record<string, string>;
}

export interface DeployOutcome extends StackOutcome {
  /** False when CloudFormation had nothing to update ("No updates are to be performed."). */
  changed: boolean;
}

export type CancelOutcome = { action: 'cancel-update' | 'delete'; status: string } | { action: 'none'; status: string | null };

export type ResourceOutputs = Record<string, { key: string; value: string }[]>;

/** The environment's stack name, readable and unique: `gantry-<envName>-<first 8 of stageId>`. */
export const stackNameFor = (envName: string, stageId: string) => `gantry-${envName}-${stageId.slice(0, 8)}`;

export interface CloudFormationAdapterOptions {
  /** Hand in clients (tests); by default new SDK clients per call, with the call's credentials. */
  clients?: (session: AwsSession) => CfnClients;
  /** How often DescribeStacks is asked while following; 3 s by default. */
  pollMs?: number;
}

const DEPLOYED = ['CREATE_COMPLETE', 'UPDATE_COMPLETE'] as const;
const UNDEPLOYED = ['DELETE_COMPLETE'] as const;
const SETTLED = ['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'DELETE_COMPLETE', 'IMPORT_COMPLETE', 'IMPORT_ROLLBACK_COMPLETE'] as const;

export function createCloudFormationAdapter(opts: CloudFormationAdapterOptions = {}) {
  const make = opts.clients ?? clientsFor;
  const clients = (t: Pick<StackTarget, 'region' | 'credentials'>) => make(toSession(t.region, t.credentials));
  const pollMs = opts.pollMs ?? 3000;

  return {
    /**
     * Builds the parent template (TemplateError on a bad name, template or reference, before any
     * upload), uploads the nested templates (the bucket made when missing), creates or updates
     * the stack and follows it to a terminal status. A stack left in ROLLBACK_COMPLETE by a failed
     * first create cannot be updated: it is deleted first, and created anew.
     */
    async deploy(i: DeployInput): Promise<DeployOutcome> {
      const c = clients(i);
      const tags = { ...i.tags, [ENVIRONMENT_TAG_KEY]: i.stageId };
      const bucket = templateBucketFor(i.awsAccountId, i.region);
      const prefix = `${i.stageId}/${i.deploymentId}`;
      const parent = buildParentTemplate(i.resources, { templateUrl: (n) => objectUrl(bucket, i.region, templateKey(prefix, n)), tags });

      let existing = await describeStack(c, i.stackName);
      if (existing?.StackStatus === 'ROLLBACK_COMPLETE') {
        const seen = await eventIdsOf(c, existing.StackId ?? i.stackName);
        await deleteStack(c, i.stackName);
        const gone = await followStack(c, existing.StackId ?? i.stackName, i.stackName, i, seen, UNDEPLOYED, pollMs);
        if (!gone.succeeded) return { ...gone, changed: false };
        existing = null;
      }
      const seen = existing ? await eventIdsOf(c, i.stackName) : new Set<string>();
      await uploadTemplates(c, { bucket, region: i.region, prefix, resources: i.resources });
      const changed = await createOrUpdate(c, { stackName: i.stackName, templateBody: parent.body, tags, parameters: parent.parameters, exists: !!existing });
      if (!changed) {
        const resources = Object.fromEntries((await nestedStacks(c, i.stackName)).map((n) => [n.name, n.status]));
        return { status: existing!.StackStatus!, succeeded: true, changed: false, resources, logs: {} };
      }
      return { ...(await followStack(c, i.stackName, i.stackName, i, seen, DEPLOYED, pollMs)), changed: true };
    },

    /** DeleteStack, followed (by stack id) to DELETE_COMPLETE or DELETE_FAILED. No stack: DELETE_COMPLETE at once. */
    async undeploy(t: StackTarget & Following): Promise<StackOutcome> {
      const c = clients(t);
      const existing = await describeStack(c, t.stackName);
      if (!existing) return { status: 'DELETE_COMPLETE', succeeded: true, resources: {}, logs: {} };
      const ref = existing.StackId ?? t.stackName;
      const seen = await eventIdsOf(c, ref);
      await deleteStack(c, t.stackName);
      return followStack(c, ref, t.stackName, t, seen, UNDEPLOYED, pollMs);
    },

    /**
     * Stops the running operation. An update is cancelled (CancelUpdateStack: CloudFormation
     * rolls back to the last good state). A create cannot be cancelled in CloudFormation, so the
     * half-made stack is deleted (DeleteStack), which is what an abandoned first deployment
     * needs anyway. Any other status: nothing to cancel (the operation already ended).
     */
    async cancel(t: StackTarget): Promise<CancelOutcome> {
      const c = clients(t);
      const status = (await describeStack(c, t.stackName))?.StackStatus ?? null;
      if (status === 'UPDATE_IN_PROGRESS') {
        await cancelUpdate(c, t.stackName);
        return { action: 'cancel-update', status };
      }
      if (status === 'CREATE_IN_PROGRESS') {
        await deleteStack(c, t.stackName);
        return { action: 'delete', status };
      }
      return { action: 'none', status };
    },

    /** ContinueUpdateRollback, for a stack in UPDATE_ROLLBACK_FAILED; follow it with `watch`. */
    async continueRollback(t: StackTarget & { resourcesToSkip?: string[] }): Promise<void> {
      await continueUpdateRollback(clients(t), t.stackName, t.resourcesToSkip);
    },

    /**
     * Follows whatever the stack is doing now to a terminal status, telling only what happens from
     * here. `goal`: the statuses that count as success (by default any complete, rollbacks included).
     */
    async watch(t: StackTarget & Following & { goal?: readonly string[] }): Promise<StackOutcome> {
      const c = clients(t);
      return followStack(c, t.stackName, t.stackName, t, await eventIdsOf(c, t.stackName), t.goal ?? SETTLED, pollMs);
    },

    /** The stack's status, or null when there is no stack. */
    async status(t: StackTarget): Promise<string | null> {
      return (await describeStack(clients(t), t.stackName))?.StackStatus ?? null;
    },

    /** The status of each resource's nested stack (empty without a stack). */
    async resources(t: StackTarget): Promise<Record<string, string>> {
      return Object.fromEntries((await nestedStacks(clients(t), t.stackName)).map((n) => [n.name, n.status]));
    },

    /** The newest events of the stack and of its nested stacks (`resource/LogicalId`), newest first. */
    async events(t: StackTarget): Promise<StackEventView[]> {
      return stackAndNestedEvents(clients(t), t.stackName);
    },

    /** Outputs per resource, read from the parent's re-exports (their description names the source). */
    async outputs(t: StackTarget): Promise<ResourceOutputs> {
      const stack = await describeStack(clients(t), t.stackName);
      const out: ResourceOutputs = {};
      for (const o of stack?.Outputs ?? []) {
        const m = OUTPUT_SOURCE.exec(o.Description ?? '');
        if (m) (out[m[1]!] ??= []).push({ key: m[2]!, value: o.OutputValue ?? '' });
      }
      return out;
    },
  };
}
export type CloudFormationAdapter = ReturnType<typeof createCloudFormationAdapter>;
