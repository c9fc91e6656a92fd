import Ajv, { type ValidateFunction } from 'ajv';
import { SPEC_SCHEMAS, SPEC_SCHEMA_OPTIONS, type SpecSchemaName } from './pipeline-spec-schemas.js';

export type SpecValidators = Record<SpecSchemaName, ValidateFunction>;

let validators: SpecValidators | null = null;

/**
 * The pipeline spec's schemas as validators, compiled by Ajv once, on first use: on the server and in tests.
 * Ajv compiles with `new Function`, which the browser's policy refuses (no 'unsafe-eval'): the web's build loads
 * in place of this module the same validators compiled ahead, as Ajv's standalone code
 * (packages/contracts/scripts/precompiled-validators.ts).
 */
export function specValidators(): SpecValidators {
  if (validators) return validators;
  const ajv = new Ajv(SPEC_SCHEMA_OPTIONS);
  validators = Object.fromEntries(Object.entries(SPEC_SCHEMAS).map(([name, schema]) => [name, ajv.compile(schema)])) as SpecValidators;
  return validators;
}
