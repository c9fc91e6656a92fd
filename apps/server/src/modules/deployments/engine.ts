import type { StageRow } from '../stages/stages.store.js';

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
}

export interface EnginePlan {
  planFile: string;
  summary: { add: number; change: number; destroy: number };
  changes: { action: string; resourceName: string; address: string }[];
}

export interface ResourceOutput { key: string; value: string; sensitive: boolean }

/**
 * What a deployment needs of an infrastructure engine (DESIGN §5). Terraform implements all of it;
 * CloudFormation has no plans. Every call may be cancelled through `run.signal` and must then stop
 * cleanly (state lock released) before it rejects.
 */
export interface DeploymentEngine {
  /** Plan + apply in one go (Quick Deploy). */
  deploy(run: EngineRun): Promise<void>;
  plan?(run: EngineRun): Promise<EnginePlan>;
  /** Applies exactly a stored plan. */
  applyPlan?(run: EngineRun, planFile: string): Promise<void>;
  /** Destroys the environment, or one resource and what depends on it. */
  undeploy(run: EngineRun, resourceName?: string): Promise<void>;
  /** Names of the resources that have cloud objects now. */
  deployedResources(stage: StageRow): Promise<string[]>;
  /** Outputs per resource name, from the engine's state. */
  outputs(stage: StageRow): Promise<Record<string, ResourceOutput[]>>;
}
