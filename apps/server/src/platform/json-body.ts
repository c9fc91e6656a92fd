import type { FastifyInstance } from 'fastify';
import { AppError } from './errors.js';

/**
 * JSON request bodies, parsed as Fastify does (its own parser: prototype and constructor poisoning refused) once
 * their shape is known to be cheap. A body is parsed before a route's guard runs, so whoever reaches the server
 * may send one, up to the body limit (5 MB): JSON.parse of 5 MB of nested arrays, of empty arrays or of an object
 * of many keys blocks the event loop for 0.3–2 s (a JSON bomb). So a body may nest at most MAX_JSON_DEPTH levels
 * and hold at most MAX_JSON_ITEMS arrays, objects and members (what no form of Gantry's comes near: a 4 MB spec is
 * one string); the check is one pass over the text (a few ms for 5 MB) and a body beyond it is answered 400
 * without being parsed.
 */
export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_ITEMS = 50_000;

export class JsonBodyRefused extends AppError {
  constructor(message: string) {
    super(400, message, 'FST_ERR_CTP_INVALID_JSON_BODY');
  }
}

/** Why a JSON text is refused before parsing (too deep, too many arrays, objects and members), or null. Strings are skipped. */
export function jsonShapeRefusal(text: string, o: { maxDepth?: number; maxItems?: number } = {}): string | null {
  const maxDepth = o.maxDepth ?? MAX_JSON_DEPTH;
  const maxItems = o.maxItems ?? MAX_JSON_ITEMS;
  let depth = 0;
  let items = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // a string: to its closing quote, escapes skipped
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return `The request body nests deeper than ${maxDepth} levels`;
      if (++items > maxItems) return `The request body has more than ${maxItems} arrays, objects and members`;
    } else if (c === 0x5d || c === 0x7d) depth--;
    else if (c === 0x2c && ++items > maxItems) return `The request body has more than ${maxItems} arrays, objects and members`;
  }
  return null;
}

/** Replaces the application/json parser of `app` (and of every plugin that keeps it) with the checked one. */
export function checkedJsonBodies(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const why = jsonShapeRefusal(body as string);
    if (why) return done(new JsonBodyRefused(why), undefined);
    parse(req, body as string, done);
  });
}
