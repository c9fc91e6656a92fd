import type { FastifyInstance, FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { messages } from '@gantry/contracts';

/** The few error kinds a service may throw; one handler maps them to status and body (DESIGN §4). */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | number = status,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
export class NotFound extends AppError {
  constructor(message = 'Not found') {
    super(404, message, 'NotFound');
  }
}
export class Forbidden extends AppError {
  constructor(message = 'You do not have permission to do this') {
    super(403, message, 'Forbidden');
  }
}
export class Conflict extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) {
    super(409, message, 'Conflict', extra);
  }
}
export class Validation extends AppError {
  constructor(message: string, fields?: Record<string, string[]>, code: string = 'ValidationError') {
    super(400, message, code, fields ? { fields } : {});
  }
}
export class PlanLimit extends AppError {
  constructor(message: string) {
    super(402, message, 'PlanLimit');
  }
}
export class Upstream extends AppError {
  constructor(message: string) {
    super(502, message, 'Upstream');
  }
}
export class Unauthorized extends AppError {
  constructor(message: string, code: string | number = 'NotAuthorizedException', type?: string) {
    super(401, message, code, type ? { type } : {});
  }
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.status).send({ message: error.message, code: error.code, ...error.extra });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields: Record<string, string[]> = {};
      for (const v of error.validation) {
        const key = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || '_';
        (fields[key] ??= []).push(v.message ?? 'Invalid value');
      }
      const first = Object.values(fields)[0]?.[0] ?? 'Invalid request';
      return reply.status(400).send({ message: first, code: 'ValidationError', fields });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({ message: messages.somethingWentWrong, code: 500 });
    }
    const failedQuery = databaseErrorOf(error);
    if (failedQuery) {
      request.log.error({ err: failedQuery }, 'database query failed');
      return reply.status(500).send({ message: messages.somethingWentWrong, code: 500 });
    }
    if (error.statusCode && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message, code: error.code ?? error.statusCode });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: messages.somethingWentWrong, code: 500 });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NotFound' }),
  );
}

type DriverError = Error & { code?: unknown; severity?: unknown; table?: unknown; column?: unknown; constraint?: unknown };
const SQLSTATE = /^[0-9A-Z]{5}$/;
const isDriverError = (e: unknown): e is DriverError =>
  e instanceof Error && typeof (e as DriverError).code === 'string' && SQLSTATE.test((e as DriverError).code as string) && 'severity' in e;

/**
 * What may be logged of a failed database query, or undefined when the error is not one. Drizzle's
 * error carries the SQL and every bound value (e-mails, password hashes, tokens) in its message
 * and properties, and a driver's message or detail can quote a value: only the SQLSTATE, the
 * names of the table, column and constraint, and the stack frames are kept.
 */
function databaseErrorOf(error: Error): Record<string, unknown> | undefined {
  const isDrizzleQuery = 'query' in error && 'params' in error;
  const driver = isDriverError(error) ? error : isDriverError(error.cause) ? error.cause : undefined;
  if (!isDrizzleQuery && !driver) return undefined;
  const names = driver ? { table: driver.table, column: driver.column, constraint: driver.constraint } : {};
  return {
    type: error.constructor.name,
    sqlState: driver?.code,
    ...Object.fromEntries(Object.entries(names).filter(([, v]) => typeof v === 'string')),
    stack: (error.stack ?? '')
      .split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n'),
  };
}
