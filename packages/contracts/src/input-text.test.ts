import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import * as contracts from './index.js';
import { InputText, NUL_MESSAGE } from './common.js';

/** Every string schema inside `schema`, with where it sits (`name.field[]`). */
function stringLeaves(schema: z.ZodType, at: string, out: { at: string; schema: z.ZodType }[] = []) {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
  const walk = (s: unknown, where: string) => stringLeaves(s as z.ZodType, where, out);
  switch (def.type) {
    case 'string':
      out.push({ at, schema });
      break;
    case 'object':
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) walk(v, `${at}.${k}`);
      break;
    case 'array':
      walk(def.element, `${at}[]`);
      break;
    case 'record':
      walk(def.keyType, `${at}{key}`);
      walk(def.valueType, `${at}{}`);
      break;
    case 'union':
      (def.options as unknown[]).forEach((o, i) => walk(o, `${at}|${i}`));
      break;
    case 'intersection':
      walk(def.left, at);
      walk(def.right, at);
      break;
    case 'pipe':
      walk(def.in, at);
      break; // what the request sends is the pipe's input
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      walk(def.innerType, at);
      break;
    case 'lazy':
      walk((def.getter as () => unknown)(), at);
      break;
    default:
      break; // numbers, booleans, enums, literals: no free text
  }
  return out;
}

/** The contracts' request schemas, by the naming convention the routes follow (…Body, …Query, …Params). */
const RESPONSES = new Set(['ErrorBody', 'OkBody']);
const requestSchemas = Object.entries(contracts).filter(([name, v]) => /(Body|Query|Params)$/.test(name) && !RESPONSES.has(name) && v instanceof z.ZodType) as [
  string,
  z.ZodType,
][];

describe('request strings refuse NUL characters (PostgreSQL text cannot hold them)', () => {
  it('InputText refuses a NUL anywhere and keeps everything else', () => {
    expect(InputText().safeParse('plain text, émoji 🚀, tab\t, newline\n').success).toBe(true);
    for (const bad of ['\u0000', 'a\u0000', '\u0000b', 'a\u0000b']) {
      const r = InputText().safeParse(bad);
      expect(r.success).toBe(false);
      expect(r.error!.issues.map((i) => i.message)).toContain(NUL_MESSAGE);
    }
  });

  it('finds the request schemas', () => {
    expect(requestSchemas.length).toBeGreaterThan(40);
    expect(requestSchemas.map(([n]) => n)).toEqual(
      expect.arrayContaining(['SignUpBody', 'LoginBody', 'ProjectBody', 'PipelineBody', 'ConnectGitAccountBody', 'BuildsQuery', 'PipelineParams']),
    );
  });

  it('every string of every request body, query and params schema is built on InputText', () => {
    const missing: string[] = [];
    for (const [name, schema] of requestSchemas) {
      for (const leaf of stringLeaves(schema, name)) {
        const r = leaf.schema.safeParse('a\u0000b');
        if (r.success || !r.error.issues.some((i) => i.message === NUL_MESSAGE)) missing.push(leaf.at);
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers the NUL message as a field error of the body', () => {
    const r = contracts.SignUpBody.safeParse({ username: 'a@example.com', password: 'Secret123', firstName: 'A\u0000', lastName: 'B' });
    expect(r.success).toBe(false);
    expect(contracts.fieldErrors(r.error!)).toEqual({ firstName: [NUL_MESSAGE] });
  });
});
