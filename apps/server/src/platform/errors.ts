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
  constructor(message = 'Not found') { super(404, message, 'NotFound'); }
}
export class Forbidden extends AppError {
  constructor(message = 'You do not have permission to do this') { super(403, message, 'Forbidden'); }
}
export class Conflict extends AppError {
  constructor(message: string, extra: Record<string, unknown> = {}) { super(409, message, 'Conflict', extra); }
}
export class Validation extends AppError {
  constructor(message: string, fields?: Record<string, string[]>, code: string = 'ValidationError') {
    super(400, message, code, fields ? { fields } : {});
  }
}
export class PlanLimit extends AppError {
  constructor(message: string) { super(402, message, 'PlanLimit'); }
}
export class Upstream extends AppError {
  constructor(message: string) { super(502, message, 'Upstream'); }
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
    if (error.statusCode && error.statusCode < 500) {
      return reply.status(error.statusCode).send({ message: error.message, code: error.code ?? error.statusCode });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: messages.somethingWentWrong, code: 500 });
  });
  app.setNotFoundHandler((request, reply) => reply.status(404).send({ message: `Route ${request.method} ${request.url.split('?')[0]} not found`, code: 'NotFound' }));
}
