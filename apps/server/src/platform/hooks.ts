import type { Permission, TimelineEvent } from '@gantry/contracts';
import type { TokensValidAfterLookup } from './tokens.js';

/**
 * Typed extension points. A module that must ask or tell modules built after it does so through a hook:
 * the platform creates the hooks, later modules register handlers in their `create`, the owner invokes them.
 * No module holds a reference to a module built after it.
 */

/** Every registered answer to one question, gathered (handlers run side by side). */
export interface Collector<Args extends unknown[], Answer> {
  provide(handler: (...args: Args) => Promise<Answer>): void;
  collect(...args: Args): Promise<Answer[]>;
}

/** An event told to every registered handler, one after the other, in registration order. */
export interface Signal<Event> {
  on(handler: (event: Event) => Promise<void>): void;
  emit(event: Event): Promise<void>;
}

/** A question exactly one module answers (the platform asks it before that module exists). */
export interface Question<Args extends unknown[], Answer> {
  answer(handler: (...args: Args) => Promise<Answer>): void;
  ask(...args: Args): Promise<Answer>;
}

/** A Collector whose handlers each name the tables their answers are read from, so an answer built on them can be kept until one is written. */
export interface ReadingCollector<Args extends unknown[], Answer> {
  provide(handler: (...args: Args) => Promise<Answer>, reads: string[]): void;
  collect(...args: Args): Promise<Answer[]>;
  /** The names of every table the handlers read (once all modules are made). */
  reads(): string[];
}

export function createQuestion<Args extends unknown[], Answer>(what: string): Question<Args, Answer> {
  let handler: ((...args: Args) => Promise<Answer>) | undefined;
  return {
    answer(h) {
      if (handler) throw new Error(`${what} is answered twice`);
      handler = h;
    },
    ask(...args) {
      if (!handler) throw new Error(`no module answers ${what}`);
      return handler(...args);
    },
  };
}

export function createCollector<Args extends unknown[], Answer>(): Collector<Args, Answer> {
  const handlers: ((...args: Args) => Promise<Answer>)[] = [];
  return {
    provide: (handler) => void handlers.push(handler),
    collect: (...args) => Promise.all(handlers.map((h) => h(...args))),
  };
}

export function createReadingCollector<Args extends unknown[], Answer>(): ReadingCollector<Args, Answer> {
  const collector = createCollector<Args, Answer>();
  const tables = new Set<string>();
  return {
    collect: collector.collect,
    provide(handler, reads) {
      collector.provide(handler);
      for (const t of reads) tables.add(t);
    },
    reads: () => [...tables],
  };
}

export function createSignal<Event>(): Signal<Event> {
  const handlers: ((event: Event) => Promise<void>)[] = [];
  return {
    on: (handler) => void handlers.push(handler),
    async emit(event) {
      for (const h of handlers) await h(event);
    },
  };
}

/** One connected cloud account, as environments name it. */
export type CloudAccountRef =
  { provider: 'aws'; awsAccountId: string } | { provider: 'gcp'; gcpProjectId: string } | { provider: 'azure'; tenantId: string; subscriptionId: string };

/** Per-project counts shown on the projects list. */
export type ProjectCounts = Map<string, Partial<{ stagesCount: number; componentsCount: number }>>;

/** A build, deployment or other run that ended. */
export type RunFinished =
  | { kind: 'build'; projectId: string; pipelineId: string; pipelineName: string; number: number; status: string; branch: string; triggeredBy: string | null }
  | {
      kind: 'deployment';
      projectId: string;
      stageId: string;
      stageName: string;
      deploymentKind: 'DEPLOY' | 'PLAN_APPLY' | 'UNDEPLOY' | 'UNDEPLOY_RESOURCE';
      resourceName: string | null;
      succeeded: boolean;
      status: string;
      triggeredBy: string | null;
    };

/** A pipeline's deploy step deploys an environment (by id or name), the named resources set to versions first. */
export type EnvironmentDeployRequest = {
  projectId: string;
  environment: string;
  /** Resource name → component version (a build id); a resource not in the environment is created only when asked. */
  resourceVersions: Record<string, string>;
  createMissingResources: boolean;
  initiator: { pipelineId: string; buildId: string };
  /** The deployment's log lines, as they come. */
  log: (line: string) => void;
  signal: AbortSignal;
};
export type EnvironmentDeployResult = { deploymentId: string; environment: string; status: string; error: string | null; succeeded: boolean };

/** One entry of the project timeline (/ms-elasticsearch). */
export type TimelineSource = (projectId: string, type?: string) => Promise<TimelineEvent[]>;

export function createHooks() {
  return {
    /** The platform's auth asks: which permission a user has in a project (projects answer). */
    membership: createQuestion<[projectId: string, userId: string], Permission | undefined>('membership'),
    /** The platform's id tokens ask: since when a user's tokens count (users answer). */
    tokensValidAfter: createQuestion<Parameters<TokensValidAfterLookup>, Awaited<ReturnType<TokensValidAfterLookup>>>('tokensValidAfter'),
    /** Counts per project (components, environments), merged by the projects module, each with the tables it counts. */
    projectCounts: createReadingCollector<[projectIds: string[]], ProjectCounts>(),
    /** Names of what keeps a project from deletion (deployed environments). */
    projectDeleteBlockers: createCollector<[projectId: string], string[]>(),
    /** Names of what uses a git account (pipelines); its removal is refused while any do. */
    gitAccountUsers: createCollector<[gitAccountId: string], string[]>(),
    /** Names of what uses a component (environments); its removal is refused while any do. */
    componentUsers: createCollector<[componentId: string], string[]>(),
    /** Names of what uses a cloud account (environments); its removal is refused while any do. */
    cloudAccountUsers: createCollector<[projectId: string, account: CloudAccountRef], string[]>(),
    /** An environment is about to be deleted (deployments keep its timeline entries). */
    stageRemoving: createSignal<{ projectId: string; stageId: string; stageName: string }>(),
    /** An environment was deleted (deployments remove its terraform files and state). */
    stageRemoved: createSignal<{ stageId: string }>(),
    /** A run ended (notifications tell the project's members). */
    runFinished: createSignal<RunFinished>(),
    /** A pipeline's deploy step deploys an environment and waits for the deployment's end (deployments answer). */
    environmentDeploy: createQuestion<[EnvironmentDeployRequest], EnvironmentDeployResult>('environmentDeploy'),
    /** Where the project timeline's events come from (builds; deployments later). */
    timelineSources: createCollector<Parameters<TimelineSource>, TimelineEvent[]>(),
  };
}
export type Hooks = ReturnType<typeof createHooks>;
