/**
 * A module loaded on first use, once (issue 14: the cloud SDKs and other heavy libraries cost seconds
 * of start-up when imported up front; most servers never touch most of them).
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}

type AsyncMethods<T> = { [K in keyof T]: (...args: any[]) => Promise<unknown> };

/**
 * An object whose methods (all answering promises; `methods` names every one) make the real object on
 * the first call of any of them: a connector hands one out at once, and the library behind it loads
 * only when a method is used.
 */
export function deferredMethods<T extends AsyncMethods<T>>(methods: Record<keyof T, true>, load: () => Promise<T>): T {
  const real = lazy(load);
  const deferred = {} as Record<keyof T, unknown>;
  for (const name of Object.keys(methods) as (keyof T)[]) deferred[name] = async (...args: unknown[]) => (await real())[name](...args);
  return deferred as T;
}
