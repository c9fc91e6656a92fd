import type { z } from 'zod';

/** The first message of each field of a failed zod parse, keyed by its dotted path ('_' for the root). */
export function firstIssueMessages(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[issue.path.join('.') || '_'] ??= issue.message;
  return out;
}

/** The first message of each field of a server 400 answer (`fields`). */
export function firstFieldMessages(fields: Record<string, string[]>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0]]));
}
