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

export function createCollector<Args extends unknown[], Answer>(): Collector<Args, Answer> {
  const handlers: ((...args: Args) => Promise<Answer>)[] = [];
  return {
    provide: (handler) => void handlers.push(handler),
    collect: (...args) => Promise.all(handlers.map((h) => h(...args))),
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
  | { provider: 'aws'; awsAccountId: string }
  | { provider: 'gcp'; gcpProjectId: string }
  | { provider: 'azure'; tenantId: string; subscriptionId: string };

export function createHooks() {
  return {
    /** Names of what uses a cloud account (environments); its removal is refused while any do. */
    cloudAccountUsers: createCollector<[projectId: string, account: CloudAccountRef], string[]>(),
  };
}
export type Hooks = ReturnType<typeof createHooks>;
