import { useMemo, useSyncExternalStore } from 'react';
import type { Profile, Project } from '@gantry/contracts';

/** Browser storage keys (spec §3, §9). */
export const STORAGE_KEYS = {
  idToken: 'idToken',
  expirationDate: 'expirationDate',
  refreshToken: 'refreshToken',
  profile: 'profile',
  project: 'project',
} as const;

/** The project kept as "current" (what the spec stores under `project`). */
export interface CurrentProject {
  id: string;
  name: string;
  description?: string;
  permission?: string;
  paymentPlanId?: string;
}

/** What is kept of a project of the list when it becomes the current one. */
export const currentProjectOf = (p: Project): CurrentProject => ({
  id: p.id,
  name: p.name,
  description: p.description,
  permission: p.permission,
  paymentPlanId: p.paymentPlanId,
});

type Listener = () => void;
const listeners = new Set<Listener>();
let version = 0;

function emit() {
  version += 1;
  listeners.forEach((l) => l());
}

if (typeof window !== 'undefined') {
  // Another tab logging in or out, or switching project.
  window.addEventListener('storage', (e) => {
    if (e.key === null || (Object.values(STORAGE_KEYS) as string[]).includes(e.key)) emit();
  });
}

function readJson<T>(key: string): T | null {
  const raw = localStorage.getItem(key);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export const session = {
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  version: () => version,

  idToken: () => localStorage.getItem(STORAGE_KEYS.idToken),
  refreshToken: () => localStorage.getItem(STORAGE_KEYS.refreshToken),
  expirationDate: () => localStorage.getItem(STORAGE_KEYS.expirationDate),
  profile: () => readJson<Profile>(STORAGE_KEYS.profile),
  project: () => readJson<CurrentProject>(STORAGE_KEYS.project),
  isLoggedIn: () => Boolean(localStorage.getItem(STORAGE_KEYS.idToken)),

  /** Stores the tokens of a login, set-password or refresh answer; expiry computed from expiresIn seconds. */
  saveTokens(tokens: { idToken: string; refreshToken: string; expiresIn: number }) {
    localStorage.setItem(STORAGE_KEYS.idToken, tokens.idToken);
    localStorage.setItem(STORAGE_KEYS.refreshToken, tokens.refreshToken);
    localStorage.setItem(STORAGE_KEYS.expirationDate, new Date(Date.now() + tokens.expiresIn * 1000).toISOString());
    emit();
  },
  saveProfile(profile: Profile) {
    localStorage.setItem(STORAGE_KEYS.profile, JSON.stringify(profile));
    emit();
  },
  setProject(project: CurrentProject | null) {
    if (project) localStorage.setItem(STORAGE_KEYS.project, JSON.stringify(project));
    else localStorage.removeItem(STORAGE_KEYS.project);
    emit();
  },
  /** Logout: tokens, profile and current project leave the browser. */
  clear() {
    Object.values(STORAGE_KEYS).forEach((k) => localStorage.removeItem(k));
    emit();
  },
};

/** Re-renders when the session (tokens, profile, project) changes, in this tab or another. */
export function useSessionVersion() {
  return useSyncExternalStore(session.subscribe, session.version, session.version);
}

export function useIsLoggedIn() {
  return useSyncExternalStore(session.subscribe, session.isLoggedIn, session.isLoggedIn);
}

export function useProfile(): Profile | null {
  const raw = useSyncExternalStore(
    session.subscribe,
    () => localStorage.getItem(STORAGE_KEYS.profile),
    () => null,
  );
  return useMemo(() => (raw ? (safeParse(raw) as Profile | null) : null), [raw]);
}

export function useCurrentProject(): CurrentProject | null {
  const raw = useSyncExternalStore(
    session.subscribe,
    () => localStorage.getItem(STORAGE_KEYS.project),
    () => null,
  );
  return useMemo(() => (raw ? (safeParse(raw) as CurrentProject | null) : null), [raw]);
}

function safeParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
