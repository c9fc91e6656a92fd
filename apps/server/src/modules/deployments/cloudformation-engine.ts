import fs from 'node:fs';
import path from 'node:path';
import { ENVIRONMENT_TAG_KEY } from '@gantry/contracts';
import {
  clientsFor,
  sessionFromEnv,
  buildParentTemplate,
  uploadTemplates,
  templateLocations,
  createOrUpdate,
  followStack,
  TERMINAL,
  describeStack,
  deletedStackId,
  eventIdsOf,
  stackAndNestedEvents,
  deleteStack,
  cancelUpdate,
  continueRollback,
  nestedStacks,
  templateBucketFor,
  type CfnClients,
  type NestedResource,
  type StackEventView,
} from '../../integrations/cloudformation/index.js';
import type { StageRow } from '../stages/stages.port.js';
import { EngineFailure, type DeploymentEngine, type EngineRun, type ResourceOutput } from './engine.js';

/** The environment's stack name: readable and unique. */
export const stackNameOf = (stage: Pick<StageRow, 'name' | 'id'>) => `gantry-${stage.name}-${stage.id.slice(0, 8)}`;
const templateBucket = (stage: Pick<StageRow, 'awsAccountId' | 'awsRegion'>) => templateBucketFor(stage.awsAccountId ?? '', stage.awsRegion ?? 'us-east-1');
/** The ends each operation aims at. */
const DEPLOYED = ['CREATE_COMPLETE', 'UPDATE_COMPLETE'];
const UNDEPLOYED = ['DELETE_COMPLETE'];
const eventLine = (e: StackEventView) =>
  `${e.timestamp} ${e.logicalResourceId} ${e.resourceType} ${e.resourceStatus}${e.statusReason ? ` — ${e.statusReason}` : ''}`;

/**
 * The CloudFormation engine: a stack per environment, each resource a nested stack (its template
 * uploaded to the account's bucket), statuses and events straight from CloudFormation. No plans.
 *
 * No change sets either: a deploy is CreateStack or UpdateStack of the whole environment, run at once, as Quick Deploy
 * asks (the spec gives CloudFormation no plan to review; a plan is Terraform's), and "No updates are to be performed"
 * is UpdateStack's own answer. So a stack of Gantry's never stands in REVIEW_IN_PROGRESS (a change set's CREATE not yet
 * executed): the spec names it only as a status an environment may show, and then Quick Deploy is refused (deployBlockedReason)
 * and UpdateStack answers CloudFormation's "… is in REVIEW_IN_PROGRESS state and can not be updated", as the AWS
 * stand-in does (it answers CreateChangeSet InvalidAction, which nothing of Gantry's calls).
 */
export function createCloudFormationEngine(deps: {
  credentialsFor: (stage: StageRow) => Promise<Record<string, string>>;
  clients?: (session: ReturnType<typeof sessionFromEnv>) => CfnClients;
  pollMs?: number;
}): DeploymentEngine {
  const make = deps.clients ?? clientsFor;
  const clients = async (stage: StageRow, creds?: Record<string, string>) =>
    make(sessionFromEnv(stage.awsRegion ?? 'us-east-1', creds ?? (await deps.credentialsFor(stage))));

  /**
   * Follows the operation just started (by the stack's id once known, as a deleted stack answers only by it) to its end:
   * its events and its nested stacks' in the log as they come, their failures as the run's logs (the nested stacks'
   * own causes under their resource). `seen`: the events from before the operation; `goal`: the ends it aims at. A
   * cancel that comes when CloudFormation can no longer stop the operation (its update done, cleaning up; a delete)
   * leaves it to reach its goal: then it did what it was asked, and is no cancelled run.
   */
  async function settle(c: CfnClients, stage: StageRow, run: EngineRun, ref: string, seen: Set<string>, goal: string[]) {
    const stackName = stackNameOf(stage);
    const onAbort = () =>
      void (async () => {
        // cancel: an update rolls back; a create cannot be cancelled, so the half-made stack is deleted
        const status = (await describeStack(c, stackName))?.StackStatus;
        if (status === 'UPDATE_IN_PROGRESS') await cancelUpdate(c, stackName);
        else if (status === 'CREATE_IN_PROGRESS') await deleteStack(c, stackName);
      })().catch((err) => run.log(`[gantry] cancel failed: ${(err as Error).message}`));
    run.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const { status, logs, succeeded } = await followStack(
        c,
        ref,
        stackName,
        {
          // the end is the run's to write, with its logs and resources: told here, the deployment would read ended while its run still holds the environment
          onStatus: (status) => (TERMINAL(status) ? undefined : run.onStatus?.(status)),
          onEvents: (events) => events.forEach((e) => run.log(eventLine(e))),
        },
        seen,
        goal,
        deps.pollMs ?? 3000,
      );
      if (succeeded) {
        if (run.signal.aborted) run.log(`[gantry] The stack reached ${status} before it could be cancelled: nothing was cancelled`);
        return { status, logs };
      }
      if (run.signal.aborted) throw new EngineFailure('Deployment cancelled', status, logs);
      throw new EngineFailure(`The stack ended in ${status}`, status, logs);
    } finally {
      run.signal.removeEventListener('abort', onAbort);
    }
  }

  return {
    async deploy(run) {
      const c = await clients(run.stage, run.credentials);
      const resources: NestedResource[] = run.resources.map((r) => {
        if (!r.template) throw new Error(`The component ${r.componentName} has no CloudFormation template`);
        return {
          name: r.name,
          templateBody: fs.readFileSync(path.join(r.dir, r.template), 'utf8'),
          // a sensitive value travels as a NoEcho parameter of the parent stack, never in a template CloudFormation keeps and shows
          parameters: r.inputs.map((i) => ({ key: i.key, value: i.value, reference: i.reference, sensitive: i.sensitive })),
        };
      });
      const tags = { [ENVIRONMENT_TAG_KEY]: run.stage.id };
      const where = { bucket: templateBucket(run.stage), region: run.stage.awsRegion ?? 'us-east-1', prefix: `${run.stage.id}/${Date.now()}` };
      // built (and so checked: names, templates, references, cycles) before anything is sent: a refused environment uploads nothing
      const at = templateLocations({ ...where, names: resources.map((r) => r.name) });
      const parent = buildParentTemplate(resources, { templateUrl: (n) => at[n]!.url, tags });
      run.log(`[gantry] uploading ${resources.length} nested template${resources.length === 1 ? '' : 's'} to ${where.bucket}`);
      await uploadTemplates(c, { ...where, resources });
      const stackName = stackNameOf(run.stage);
      const seen = await eventIdsOf(c, stackName);
      const changed = await createOrUpdate(c, { stackName, templateBody: parent.body, parameters: parent.parameters, tags });
      if (!changed) {
        run.log('[gantry] No updates are to be performed.');
        return { status: (await describeStack(c, stackName))?.StackStatus ?? 'UPDATE_COMPLETE' };
      }
      return settle(c, run.stage, run, stackName, seen, DEPLOYED);
    },

    async undeploy(run, resourceName) {
      if (resourceName) throw new Error('CloudFormation resources are undeployed with their environment');
      const c = await clients(run.stage, run.credentials);
      const stack = await describeStack(c, stackNameOf(run.stage));
      if (!stack) return { status: 'DELETE_COMPLETE' };
      const ref = stack.StackId ?? stackNameOf(run.stage);
      const seen = await eventIdsOf(c, ref);
      await deleteStack(c, stackNameOf(run.stage));
      return settle(c, run.stage, run, ref, seen, UNDEPLOYED);
    },

    async deployedResources(stage) {
      const nested = await nestedStacks(await clients(stage), stackNameOf(stage));
      return nested.filter((n) => n.status !== 'DELETE_COMPLETE' && !n.status.startsWith('CREATE_FAILED')).map((n) => n.name);
    },

    async outputs(stage) {
      const c = await clients(stage);
      const out: Record<string, ResourceOutput[]> = {};
      for (const n of await nestedStacks(c, stackNameOf(stage))) {
        const stack = await describeStack(c, n.stackId);
        out[n.name] = (stack?.Outputs ?? []).map((o) => ({ key: o.OutputKey ?? '', value: o.OutputValue ?? '', sensitive: false }));
      }
      return out;
    },

    async events(stage) {
      const c = await clients(stage);
      const name = stackNameOf(stage);
      // an undeployed environment's stack answers only by its id: its deletion's events are read by it
      const ref = (await describeStack(c, name))?.StackId ?? (await deletedStackId(c, name)) ?? name;
      // the nested stacks' own events too (net/Vpc): there the causes of a failed resource are
      return stackAndNestedEvents(c, ref);
    },

    async continueRollback(stage) {
      await continueRollback(await clients(stage), stackNameOf(stage));
    },
  };
}
