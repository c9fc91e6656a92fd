import { AUTH_ERROR, messages } from '@gantry/contracts';

/** An error answer of the API: `{ message, code, type?, fields? }` plus the HTTP status and the whole body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | number;
  readonly type?: string;
  readonly fields?: Record<string, string[]>;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    const message = typeof body.message === 'string' && body.message ? body.message : messages.somethingWentWrong;
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.code = (typeof body.code === 'string' || typeof body.code === 'number' ? body.code : status) as string | number;
    this.type = typeof body.type === 'string' ? body.type : undefined;
    this.fields = (body.fields as Record<string, string[]> | undefined) ?? undefined;
  }

  /** Whether the server sent a message of its own (otherwise callers use their fallback). */
  get hasServerMessage() {
    return typeof this.body.message === 'string' && this.body.message.length > 0;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** 402: the plan does not include the feature (spec §8). */
export const isPlanLimit = (e: unknown) => isApiError(e) && e.status === 402;

/** 401 that asks for a token refresh. */
export const isTokenExpired = (e: ApiError) => e.status === 401 && e.type === AUTH_ERROR.expired;

/** 401 that ends the session: NotAuthorizedException in code or message, or a JsonWebTokenError. */
export const isSessionInvalid = (e: ApiError) =>
  e.status === 401 && (e.type === AUTH_ERROR.invalid || String(e.code).includes(AUTH_ERROR.notAuthorized) || e.message.includes(AUTH_ERROR.notAuthorized));

/** The text of an error toast: the server message, else the given fallback (default 'Something went wrong!'). */
export function errorMessage(e: unknown, fallback: string = messages.somethingWentWrong): string {
  if (isApiError(e)) return e.hasServerMessage ? e.message : fallback;
  return fallback;
}
