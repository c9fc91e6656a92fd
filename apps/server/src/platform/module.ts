import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../config.js';
import type { Database, Db } from './db.js';
import type { Jobs } from './jobs.js';
import type { Mailer } from './mail.js';
import type { SecretBox } from './secrets.js';
import type { IdTokens } from './tokens.js';
import type { Guards, MembershipLookup } from './auth.js';
import type { Realtime } from './realtime.js';
import type { ArtifactStore } from './artifacts.js';
import type { Sandbox } from '../integrations/executor/sandbox.js';
import type { Hooks } from './hooks.js';

/** What the platform hands every module: cross-cutting services, settings and the hooks. */
export interface Platform {
  config: Config;
  database: Database;
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  secrets: SecretBox;
  /** A key of its own for one purpose, derived from the instance's master key. */
  deriveKey(purpose: string): Buffer;
  /** Names the instance's outbox page (mails without an SMTP server). */
  outboxKey: string;
  idTokens: IdTokens;
  guards: Guards;
  membership: MembershipLookup;
  realtime: Realtime;
  artifacts: ArtifactStore;
  sandbox: Sandbox;
  hooks: Hooks;
  log: FastifyBaseLogger;
  /** The portal's public address (links in mails, OAuth redirects, webhooks). */
  baseUrl: () => string;
  /** This process takes jobs (GANTRY_ROLE all or worker). */
  runWorkers: boolean;
}

export interface ModuleRoutes {
  /** The spec's service prefix, e.g. /ms-engine. */
  prefix: string;
  plugin: FastifyPluginAsyncZod;
}

export interface ModuleJob {
  queue: string;
  handler: (data: never) => Promise<void>;
}

/** What a module brings to the app besides its api; app.ts mounts each part by role. */
export interface ModuleParts {
  routes?: ModuleRoutes[];
  /** Workers for pg-boss queues (GANTRY_JOB_CONCURRENCY of each). */
  jobs?: ModuleJob[];
  /** socket.io handlers (log streams). */
  socket?: (realtime: Realtime) => void;
  /** Once every module exists, before the app serves: seed data, recover interrupted runs. */
  start?(): Promise<void>;
  /** A server stop: no new work, and this process's runs end within `withinMs`. */
  stop?(withinMs: number): Promise<void>;
}

export interface CreatedModule<Api> extends ModuleParts {
  api: Api;
}

export interface ModuleDefinition<Name extends string, Needs, Api, Overrides> {
  name: Name;
  /** `needs` are apis of modules created before this one; `overrides` are stand-ins tests hand in. */
  create(platform: Platform, needs: Needs, overrides: Overrides): CreatedModule<Api> | Promise<CreatedModule<Api>>;
}

export type AnyModule = ModuleDefinition<string, any, unknown, any>;

export function defineModule<Name extends string, Needs = object, Api = undefined, Overrides extends object = object>(
  definition: ModuleDefinition<Name, Needs, Api, Overrides>,
): ModuleDefinition<Name, Needs, Api, Overrides> {
  return definition;
}

/** A typed job, for a module's `jobs` part. */
export const job = <T>(queue: string, handler: (data: T) => Promise<void>): ModuleJob => ({ queue, handler: handler as (data: never) => Promise<void> });

interface Entry {
  name: string;
  create: AnyModule['create'];
}

/**
 * Modules in dependency order. `add` accepts a module only when every api it needs was added before it,
 * so a back-reference does not compile: it becomes a hook instead.
 */
export interface ModuleList<Apis, Overrides> {
  add<Name extends string, Needs, Api, O extends object>(
    module: ModuleDefinition<Name, Needs, Api, O>,
    ..._order: Apis extends Needs ? [] : [error: `${Name} needs a module that is not added before it`]
  ): ModuleList<Apis & { [K in Name]: Api }, Overrides & { [K in Name]?: Partial<O> }>;
  /** Creates the modules one after the other; answers their apis by name and their parts in order. */
  create(platform: Platform, overrides?: Overrides): Promise<{ apis: Apis; parts: (ModuleParts & { name: string })[] }>;
}

export function moduleList(): ModuleList<object, object> {
  return listOf([]);
}

function listOf(entries: Entry[]): ModuleList<never, never> {
  return {
    add: (module) => listOf([...entries, { name: module.name, create: module.create }]),
    async create(platform, overrides) {
      const apis: Record<string, unknown> = {};
      const parts: (ModuleParts & { name: string })[] = [];
      for (const entry of entries) {
        const { api, ...rest } = await entry.create(platform, { ...apis }, (overrides as Record<string, object> | undefined)?.[entry.name] ?? {});
        apis[entry.name] = api;
        parts.push({ name: entry.name, ...rest });
      }
      return { apis: apis as never, parts };
    },
  } as ModuleList<never, never>;
}

/** The api a module answers (the type other modules name in their `needs`). */
export type ApiOf<M> = M extends ModuleDefinition<string, any, infer Api, any> ? Api : never;
