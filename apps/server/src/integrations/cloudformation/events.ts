import type { StackEvent as CfnEvent } from '@aws-sdk/client-cloudformation';
import type { StackEvent } from '@gantry/contracts';

export type StackEventView = StackEvent;
/** The deployment's `logs` (packages/contracts/src/deployments.ts). */
export type ErrorLogs = Record<string, { errorMessages: { logicalResourceId: string; resourceType: string; statusReason: string }[] }>;

/**
 * The contracts' shape of an event. Events of a nested stack name their resource first
 * (`vpc/PublicSubnet1`): child logical ids alone would be ambiguous across resources.
 */
export const toStackEvent = (e: CfnEvent, resource?: string): StackEventView => ({
  eventId: e.EventId ?? '',
  timestamp: (e.Timestamp ?? new Date(0)).toISOString(),
  logicalResourceId: resource ? `${resource}/${e.LogicalResourceId ?? ''}` : (e.LogicalResourceId ?? ''),
  resourceType: e.ResourceType ?? '',
  resourceStatus: e.ResourceStatus ?? '',
  statusReason: e.ResourceStatusReason ?? null,
});

export const isFailureEvent = (status: string | undefined) => !!status && status.endsWith('_FAILED');

/** An event and the environment resource it belongs to: the nested stack's name, or null for the parent's own. */
export interface OwnedEvent {
  resource: string | null;
  event: CfnEvent;
}

/**
 * Error events grouped by environment resource: the parent's failure of a nested stack and the
 * child's own failures (the actual causes) under the resource's name; failures of the parent
 * stack itself under its stack name. Oldest first.
 */
export function errorLogsByResource(events: OwnedEvent[], stackName: string): ErrorLogs {
  const logs: ErrorLogs = {};
  const sorted = [...events].sort((a, b) => (a.event.Timestamp?.getTime() ?? 0) - (b.event.Timestamp?.getTime() ?? 0));
  for (const { resource, event: e } of sorted) {
    if (!isFailureEvent(e.ResourceStatus) || !e.ResourceStatusReason) continue;
    const key = resource ?? (e.LogicalResourceId === stackName ? stackName : (e.LogicalResourceId ?? stackName));
    (logs[key] ??= { errorMessages: [] }).errorMessages.push({
      logicalResourceId: e.LogicalResourceId ?? '',
      resourceType: e.ResourceType ?? '',
      statusReason: e.ResourceStatusReason,
    });
  }
  return logs;
}
