import { z } from 'zod';

export const messages = {
  emailInvalid: 'Please enter a valid email',
  emailRequired: 'Please enter an email address',
  passwordRequired: 'Please enter a password',
  passwordMin: 'Password must be at least 8 characters long',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordsDontMatch: "Passwords don't match",
  permissionRequired: 'Please assign a permission',
  somethingWentWrong: 'Something went wrong!',
} as const;

export const NUL_MESSAGE = 'Must not contain NUL characters';

/**
 * The string of every request body, query and params field (build on it, never on z.string()).
 * PostgreSQL text cannot hold NUL (U+0000): such a value is refused here with a field error
 * instead of reaching a query and failing there.
 */
export const InputText = (params?: Parameters<typeof z.string>[0]) => z.string(params).refine((s) => !s.includes('\u0000'), NUL_MESSAGE);

/** A request id field: a UUID, with the form's own message when given. */
export const InputUuid = (message?: string) => InputText(message ? { error: message } : undefined).uuid(message);

/** An e-mail as the forms take it: trimmed, required, valid, compared lower-case. */
export const Email = InputText({ error: messages.emailRequired })
  .trim()
  .min(1, messages.emailRequired)
  .pipe(z.email({ error: messages.emailInvalid }))
  .transform((e) => e.toLowerCase());

/** Spec §5: required; at least 8 characters; a lowercase letter, an uppercase letter and a number. */
export const Password = InputText({ error: messages.passwordRequired })
  .min(1, messages.passwordRequired)
  .min(8, messages.passwordMin)
  .regex(/[a-z]/, messages.passwordLower)
  .regex(/[A-Z]/, messages.passwordUpper)
  .regex(/[0-9]/, messages.passwordNumber);

export const RequiredText = (label: string, max?: number) => {
  let s = InputText({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`);
  if (max) s = s.max(max, `${label} must be at most ${max} characters`);
  return s;
};

export const Id = InputText().min(1);
export const IsoDate = z.string();

/** The JSON body of every error answer (DESIGN §4). */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.union([z.string(), z.number()]),
  type: z.string().optional(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const OkBody = z.object({ ok: z.literal(true) });
export type OkBody = z.infer<typeof OkBody>;

/** The placeholder a read shows instead of a stored secret; an update sending it keeps the secret. */
export const SENSITIVE_PLACEHOLDER = '(sensitive)';

/** Turns zod issues into the field → messages map of a 400 answer and of a form. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}
