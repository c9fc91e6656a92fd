import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ServerToClientEvents } from '@gantry/contracts';
import { onRealtime } from './realtime';

type ServerEvent = keyof ServerToClientEvents;

/** What a feature does with the project room's events: each handler gets the query client and the project. */
export type ProjectEventHandlers = {
  [E in ServerEvent]?: (qc: QueryClient, projectId: string, ...args: Parameters<ServerToClientEvents[E]>) => void;
};

/**
 * Listens to the project room's events while `projectId` is set, and stops on unmount or when the
 * project changes. `handlers` is a module-level constant: a new object each render would resubscribe.
 */
export function useProjectEvents(projectId: string | undefined, handlers: ProjectEventHandlers) {
  const qc = useQueryClient();
  useEffect(() => {
    if (!projectId) return;
    const stops = (Object.keys(handlers) as ServerEvent[]).map((event) => {
      const handle = handlers[event] as (qc: QueryClient, projectId: string, ...args: unknown[]) => void;
      return onRealtime(event, ((...args: unknown[]) => handle(qc, projectId, ...args)) as ServerToClientEvents[typeof event]);
    });
    return () => stops.forEach((stop) => stop());
  }, [qc, projectId, handlers]);
}
