import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * A route's answer written by a serializer compiled once from its zod schema (fast-json-stringify), for
 * hot routes whose handler builds the answer field by field: only the schema's properties are written,
 * as with zod's encode, without zod walking and copying the whole value on every request (the largest
 * part of a cached project list's own work). A schema JSON Schema cannot express (transforms, codecs,
 * dates) is refused when the route is made, not at a request.
 */
export const compiledSerializer = ({ schema }: { schema: unknown }): ((data: unknown) => string) => {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema as z.ZodType, { io: 'output', unrepresentable: 'throw' });
  return fastJson(json as Parameters<typeof fastJson>[0]);
};
