/**
 * The pipeline spec's validators compiled ahead of time, for the browser: its policy has no 'unsafe-eval', and Ajv
 * compiles a schema with `new Function`. A Vite plugin (the web's build, and the contracts' tests of this path)
 * answers src/pipeline-spec-validators.ts, which compiles them when first used, with Ajv's standalone code of the
 * same schemas and options: the same checks and the same errors, with no eval and no Ajv in the bundle.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { SPEC_SCHEMAS, SPEC_SCHEMA_OPTIONS } from '../src/pipeline-spec-schemas.js';

const require = createRequire(import.meta.url);
const VALIDATORS_MODULE = fileURLToPath(new URL('../src/pipeline-spec-validators.ts', import.meta.url));

/** An ES module with the exports of src/pipeline-spec-validators.ts, its validators compiled. */
export function precompiledValidatorsSource(): string {
  const ajv = new Ajv({ ...SPEC_SCHEMA_OPTIONS, code: { source: true, esm: true } });
  const names = Object.keys(SPEC_SCHEMAS) as (keyof typeof SPEC_SCHEMAS)[];
  for (const name of names) ajv.addSchema(SPEC_SCHEMAS[name], name);
  const code = standaloneCode(ajv, Object.fromEntries(names.map((n) => [n, n])));
  // the compiled code requires Ajv's runtime helpers (minLength counts code points with ucs2length) as CommonJS,
  // which an ES module in the browser cannot: each helper's own code goes in instead
  const inlined = code.replace(/require\("(ajv\/dist\/runtime\/[\w-]+)"\)\.default/g, (call, helper: string) => {
    const source = String((require(helper) as { default: unknown }).default);
    if (source.includes('require(')) throw new Error(`${call} needs more of Ajv: it cannot be inlined`);
    return source;
  });
  if (inlined.includes('require(')) throw new Error(`The compiled validators require more than Ajv's helpers: ${/require\([^)]*\)/.exec(inlined)![0]}`);
  return `${inlined}\nconst validators = { ${names.join(', ')} };\nexport function specValidators() { return validators; }\n`;
}

/** The Vite plugin: src/pipeline-spec-validators.ts is loaded as its precompiled validators. */
export function precompiledSpecValidators() {
  return {
    name: 'gantry-precompiled-spec-validators',
    enforce: 'pre' as const,
    load(id: string) {
      return id.split('?')[0] === VALIDATORS_MODULE ? precompiledValidatorsSource() : undefined;
    },
  };
}
