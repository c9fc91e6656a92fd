/**
 * A module loaded on first use, once (issue 14: the cloud SDKs and other heavy libraries cost seconds
 * of start-up when imported up front; most servers never touch most of them).
 */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
