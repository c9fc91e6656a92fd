import path from 'node:path';

/**
 * The generated root module of one environment (DESIGN §5): one `module "<resource>"` block per
 * resource, references between resources as `module.<resource>.<output>`, and every module
 * output re-exported at the root as `<resource>__<output>`.
 *
 * Written in Terraform's JSON syntax, so no HCL quoting is ever needed. In that syntax every
 * string (and object key) is a template, so literal values are escaped (`${` → `$${`,
 * `%{` → `%%{`) and come out of Terraform exactly as given.
 *
 * Sensitive literal inputs are not written into the files: each becomes a sensitive root
 * variable whose value travels in the environment (`TF_VAR_<resource>__<input>`, JSON for
 * non-strings, decoded with `jsondecode`). Pure: no I/O.
 */

export type InputValue = { literal: unknown } | { reference: string };

export interface RootModuleResource {
  /** The resource name (a Terraform identifier without `__`); the module block's name. */
  name: string;
  /** Absolute path of the component's module directory (one build's artifact). */
  source: string;
  inputs: Record<string, InputValue>;
  /** Input names whose literal values are secret: passed through the environment, never written. */
  sensitiveInputs?: string[];
}

export interface ModuleOutputDecl {
  name: string;
  sensitive?: boolean;
}

export interface RootModuleSpec {
  resources: RootModuleResource[];
  /**
   * The outputs each resource's module declares (e.g. from `readModuleInterface` or the
   * component's schema), keyed by resource name. They are re-exported as `<resource>__<output>`
   * and references to a listed resource are checked against them. A resource left out here has
   * no root outputs and its referenced outputs are not checked.
   */
  outputs?: Record<string, ModuleOutputDecl[]>;
}

export interface RootModule {
  /** File name → content, to write into the environment's working directory. */
  files: Record<string, string>;
  /** `TF_VAR_…` values of the sensitive inputs, for the runner's `env`. */
  env: Record<string, string>;
  /** The sensitive input values as they would appear in text, for the runner's `secrets` (log masking). */
  secrets: string[];
}

export class RootModuleError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid environment: ${problems.join('; ')}`);
    this.name = 'RootModuleError';
  }
}

/** Terraform identifiers: a letter or underscore, then letters, digits, underscores and dashes. */
export const TERRAFORM_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Names a module block reserves for itself: no input variable may take them. */
const RESERVED_INPUTS = new Set(['source', 'version', 'count', 'for_each', 'providers', 'depends_on', 'lifecycle', 'locals']);
/** Separator between resource and output in root output names. */
export const OUTPUT_SEPARATOR = '__';

/** `module.<name>`: the address of a resource's module, e.g. for `-target`. */
export const moduleAddress = (resourceName: string) => `module.${resourceName}`;

/** The root output name for a resource's output. */
export const rootOutputName = (resource: string, output: string) => `${resource}${OUTPUT_SEPARATOR}${output}`;

/** Splits a root output name back into resource and output (resource names never contain `__`). */
export function splitRootOutputName(name: string): { resource: string; output: string } | undefined {
  const i = name.indexOf(OUTPUT_SEPARATOR);
  if (i <= 0 || i + OUTPUT_SEPARATOR.length >= name.length) return undefined;
  return { resource: name.slice(0, i), output: name.slice(i + OUTPUT_SEPARATOR.length) };
}

/** Parses `resourceName.outputName`. */
export function parseReference(ref: string): { resource: string; output: string } | undefined {
  const parts = ref.split('.');
  if (parts.length !== 2 || !TERRAFORM_IDENTIFIER.test(parts[0]) || !TERRAFORM_IDENTIFIER.test(parts[1])) return undefined;
  return { resource: parts[0], output: parts[1] };
}

/** Escapes a literal string for a Terraform JSON-syntax template. */
export const escapeTemplate = (s: string) => s.replace(/([$%])\{/g, (_m, c: string) => `${c}${c}{`);

function escapeLiteral(value: unknown, where: string, problems: string[]): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'string') return escapeTemplate(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) problems.push(`${where}: ${value} is not a number Terraform accepts`);
    return value;
  }
  if (Array.isArray(value)) return value.map((v, i) => escapeLiteral(v, `${where}[${i}]`, problems));
  const proto = typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
  if (proto === Object.prototype || proto === null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[escapeTemplate(k)] = escapeLiteral(v, `${where}.${k}`, problems);
    return out;
  }
  problems.push(`${where}: a ${typeof value} value cannot be passed to Terraform`);
  return null;
}

function findCycle(graph: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of [...(graph.get(node) ?? [])].sort()) {
      if (state.get(next) === 'visiting') return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return undefined;
}

export function generateRootModule(spec: RootModuleSpec): RootModule {
  const problems: string[] = [];
  const names = new Set<string>();
  for (const r of spec.resources) {
    if (!TERRAFORM_IDENTIFIER.test(r.name))
      problems.push(`resource name "${r.name}" is not a valid Terraform identifier (letters, digits, _ and -, not starting with a digit or -)`);
    else if (r.name.includes(OUTPUT_SEPARATOR)) problems.push(`resource name "${r.name}" must not contain "${OUTPUT_SEPARATOR}"`);
    if (names.has(r.name)) problems.push(`resource name "${r.name}" is used twice`);
    names.add(r.name);
    if (typeof r.source !== 'string' || !path.isAbsolute(r.source))
      problems.push(`resource "${r.name}": module source must be an absolute path, got "${r.source}"`);
    else if (/[$%]\{/.test(r.source)) problems.push(`resource "${r.name}": module source must not contain "\${" or "%{"`);
  }
  const declared = new Map<string, ModuleOutputDecl[]>();
  for (const [resource, outs] of Object.entries(spec.outputs ?? {})) {
    if (!names.has(resource)) {
      problems.push(`outputs are given for unknown resource "${resource}"`);
      continue;
    }
    for (const o of outs)
      if (!TERRAFORM_IDENTIFIER.test(o.name)) problems.push(`resource "${resource}": output name "${o.name}" is not a valid Terraform identifier`);
    declared.set(resource, outs);
  }

  const modules: Record<string, Record<string, unknown>> = {};
  const variables: Record<string, Record<string, unknown>> = {};
  const env: Record<string, string> = {};
  const secrets: string[] = [];
  const graph = new Map<string, Set<string>>();

  for (const r of spec.resources) {
    const block: Record<string, unknown> = { source: r.source };
    const deps = new Set<string>();
    graph.set(r.name, deps);
    const sensitive = new Set(r.sensitiveInputs ?? []);
    for (const s of sensitive) if (!(s in r.inputs)) problems.push(`resource "${r.name}": sensitive input "${s}" has no value`);
    for (const [key, input] of Object.entries(r.inputs)) {
      const where = `resource "${r.name}" input "${key}"`;
      if (!TERRAFORM_IDENTIFIER.test(key)) {
        problems.push(`${where}: not a valid Terraform identifier`);
        continue;
      }
      if (RESERVED_INPUTS.has(key)) {
        problems.push(`${where}: "${key}" is reserved by Terraform for module blocks`);
        continue;
      }
      if (input && typeof input === 'object' && 'reference' in input) {
        const ref = parseReference(input.reference);
        if (!ref) {
          problems.push(`${where}: reference "${input.reference}" must be written resourceName.outputName`);
          continue;
        }
        if (!names.has(ref.resource)) {
          problems.push(`${where}: references unknown resource "${ref.resource}"`);
          continue;
        }
        const outs = declared.get(ref.resource);
        if (outs && !outs.some((o) => o.name === ref.output)) {
          problems.push(`${where}: resource "${ref.resource}" has no output "${ref.output}"`);
          continue;
        }
        deps.add(ref.resource);
        block[key] = `\${module.${ref.resource}.${ref.output}}`;
      } else if (input && typeof input === 'object' && 'literal' in input) {
        if (input.literal === undefined) continue; // no value: the module's default applies
        if (sensitive.has(key)) {
          const variable = rootOutputName(r.name, key);
          const isString = typeof input.literal === 'string';
          const text = isString ? (input.literal as string) : JSON.stringify(input.literal);
          if (text === undefined) {
            problems.push(`${where}: value cannot be passed to Terraform`);
            continue;
          }
          variables[variable] = { type: 'string', sensitive: true };
          env[`TF_VAR_${variable}`] = text;
          secrets.push(text);
          if (!isString) for (const leaf of stringLeaves(input.literal)) secrets.push(leaf);
          block[key] = isString ? `\${var.${variable}}` : `\${jsondecode(var.${variable})}`;
        } else {
          block[key] = escapeLiteral(input.literal, where, problems);
        }
      } else {
        problems.push(`${where}: must be { literal } or { reference }`);
      }
    }
    modules[r.name] = block;
  }

  const cycle = problems.length ? undefined : findCycle(graph);
  if (cycle) problems.push(`reference cycle: ${cycle.join(' → ')}`);
  if (problems.length) throw new RootModuleError(problems);

  const outputs: Record<string, Record<string, unknown>> = {};
  for (const r of spec.resources) {
    for (const o of declared.get(r.name) ?? []) {
      outputs[rootOutputName(r.name, o.name)] = { value: `\${module.${r.name}.${o.name}}`, ...(o.sensitive ? { sensitive: true } : {}) };
    }
  }

  const main: Record<string, unknown> = {};
  if (Object.keys(variables).length) main.variable = variables;
  if (Object.keys(modules).length) main.module = modules;
  if (Object.keys(outputs).length) main.output = outputs;
  return { files: { 'main.tf.json': `${JSON.stringify(main, null, 2)}\n` }, env, secrets: [...new Set(secrets)] };
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringLeaves);
  return [];
}
