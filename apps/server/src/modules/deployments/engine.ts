import type { StageRow } from '../stages/stages.port.js';

/** A resource ready for an engine: its component version unpacked in `dir`, its inputs resolved (secrets opened). */
export interface PreparedResource {
  name: string;
  componentId: string;
  componentName: string;
  versionId: string;
  version: string | null;
  dir: string;
  /** CloudFormation: the template's file name inside `dir`. */
  template: string | null;
  inputs: { key: string; value: string | number | boolean; reference: boolean; sensitive: boolean }[];
  outputs: { name: string; sensitive: boolean }[];
}

export interface EngineRun {
  stage: StageRow;
  resources: PreparedResource[];
  /** The cloud account's credentials as environment variables (never logged: masked). */
  credentials: Record<string, string>;
  /** One line of the engine's log (masked by the caller). */
  log: (line: string) => void;
  signal: AbortSignal;
  /** The engine's own status while it runs (CloudFormation's stack statuses). */
  onStatus?: (status: string) => Promise<void>;
  /** The pid (= process group) of a local engine process while it runs, null when it ended (recovery ends it if its worker died). */
  onProcess?: (pid: number | null) => void;
  /**
   * The state the engine has just left (Terraform: after each run, failed or not), sealed, for the run's end to store
   * in its own transaction; without it the engine stores the state itself.
   */
  onStateLeft?: (state: LeftState) => void;
  /** What the engine's warmUp started for this run. */
  warm?: WarmStart;
  /** The environment's sealed state as read once the run's row was inserted (null: none stored); read by the engine when absent. */
  sealedState?: string | null;
}

/** A run's state as the engine left it: sealed, not stored yet; its plain copies stay on disk until `stored` removes them. */
export interface LeftState {
  sealed: string;
  /** The resources that have cloud objects per this state (undefined when it does not parse). */
  deployed?: string[];
  /** Called once the sealed state is committed (never before): removes the plain copies the run left. */
  stored(): void;
}

/** What an engine starts for a run before the run is prepared; closed when the run ends, used or not. */
export interface WarmStart {
  /** (Terraform: the box, and the group of the run's boxes, whose end it answers.) */
  close(): void | Promise<void>;
}

import type { ErrorLogs } from './deployments.tables.js';
export type { ErrorLogs };

/** How a run ended when the engine names the status itself (CloudFormation: CREATE_COMPLETE, ROLLBACK_COMPLETE, …). */
export interface EngineOutcome {
  status: string;
  logs?: ErrorLogs;
}

/** A failed run with the engine's final status and its error events. */
export class EngineFailure extends Error {
  constructor(
    message: string,
    readonly status: string,
    readonly logs: ErrorLogs = {},
  ) {
    super(message);
  }
}

export interface EnginePlan {
  planFile: string;
  summary: { add: number; change: number; destroy: number };
  changes: { action: string; resourceName: string; address: string }[];
}

export interface ResourceOutput {
  key: string;
  value: string;
  sensitive: boolean;
}

/**
 * What a deployment needs of an infrastructure engine (DESIGN §5). Terraform implements all of it;
 * CloudFormation has no plans. Every call may be cancelled through `run.signal` and must then stop
 * cleanly (state lock released) before it rejects.
 */
export interface DeploymentEngine {
  /**
   * Starts what a run of this environment needs and that does not depend on its resources, inputs or
   * credentials (Terraform: its sandbox), while the run prepares those; handed to the run as `warm`.
   */
  warmUp?(stage: StageRow): WarmStart | undefined;
  /** Plan + apply in one go (Quick Deploy). */
  deploy(run: EngineRun): Promise<EngineOutcome | void>;
  plan?(run: EngineRun): Promise<EnginePlan>;
  /** Applies exactly a stored plan. */
  applyPlan?(run: EngineRun, planFile: string): Promise<void>;
  /** Destroys the environment, or one resource and what depends on it. */
  undeploy(run: EngineRun, resourceName?: string): Promise<EngineOutcome | void>;
  /** CloudFormation: the stack's events, newest first. */
  events?(stage: StageRow): Promise<import('@gantry/contracts').StackEvent[]>;
  continueRollback?(stage: StageRow): Promise<void>;
  /** After a worker of this host died mid-run: keep what its run left behind (Terraform: the unsealed state) before the run is failed. */
  recoverState?(stage: StageRow): Promise<void>;
  /** Names of the resources that have cloud objects now. */
  deployedResources(stage: StageRow): Promise<string[]>;
  /** Outputs per resource name, from the engine's state. */
  outputs(stage: StageRow): Promise<Record<string, ResourceOutput[]>>;
}
