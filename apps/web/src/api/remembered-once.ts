/**
 * A value a flow that leaves the page (to a provider, to another screen) hands to the page where it ends: kept in
 * browser storage with the time it was kept, and read once. Too old, unreadable or refused storage: nothing.
 */
export function rememberOnce(storage: () => Storage, key: string, value: string, now = Date.now()) {
  try {
    storage().setItem(key, JSON.stringify({ value, at: now }));
  } catch {
    // storage refused (private mode, quota): nothing is handed over
  }
}

/** The value kept under `key` if not older than `ttlMs`; the entry is removed either way. */
export function takeOnce(storage: () => Storage, key: string, ttlMs: number, now = Date.now()): string | null {
  try {
    const raw = storage().getItem(key);
    if (!raw) return null;
    storage().removeItem(key);
    const { value, at } = JSON.parse(raw) as { value?: unknown; at?: unknown };
    return typeof value === 'string' && typeof at === 'number' && now - at <= ttlMs ? value : null;
  } catch {
    return null;
  }
}
