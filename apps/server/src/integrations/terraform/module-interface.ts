import fs from 'node:fs';
import path from 'node:path';
import type { ModuleOutputDecl } from './root-module.js';

/**
 * The variables and outputs a component's module declares, read from its top-level `*.tf` and
 * `*.tf.json` files — what `generateRootModule` needs to re-export outputs (and keep sensitive
 * ones sensitive) when the component's schema does not say. The HCL reading is a small
 * block scanner (strings, comments and heredocs aware), not a full parser: it finds top-level
 * `variable "x" {…}` / `output "x" {…}` blocks and a `sensitive = true` directly inside them.
 */
export interface ModuleInterface {
  variables: ModuleOutputDecl[];
  outputs: ModuleOutputDecl[];
}

export function readModuleInterface(dir: string): ModuleInterface {
  const result: ModuleInterface = { variables: [], outputs: [] };
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.tf') || f.endsWith('.tf.json'))
    .sort();
  for (const file of files) {
    if (/(^|_)override\.tf(\.json)?$/.test(file)) continue;
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const found = file.endsWith('.json') ? scanJson(text, file) : scanHcl(text);
    result.variables.push(...found.variables);
    result.outputs.push(...found.outputs);
  }
  const byName = (a: ModuleOutputDecl, b: ModuleOutputDecl) => a.name.localeCompare(b.name);
  result.variables.sort(byName);
  result.outputs.sort(byName);
  return result;
}

function scanJson(text: string, file: string): ModuleInterface {
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const blocks = (kind: string): ModuleOutputDecl[] => {
    const section = doc[kind];
    if (!section || typeof section !== 'object') return [];
    // JSON syntax allows either an object of blocks or an array of such objects
    const entries = Array.isArray(section) ? section.flatMap((s) => Object.entries(s ?? {})) : Object.entries(section);
    return entries.map(([name, body]) => {
      const b = (Array.isArray(body) ? body[0] : body) as Record<string, unknown> | undefined;
      return { name, sensitive: b?.sensitive === true };
    });
  };
  return { variables: blocks('variable'), outputs: blocks('output') };
}

/** Tokens that matter for finding blocks: identifiers, strings, `{`, `}`, `=`, newlines. */
type Token = { kind: 'ident' | 'string' | 'open' | 'close' | 'eq' | 'nl' | 'other'; text: string };

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '#' || (c === '/' && src[i + 1] === '/')) {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      i = end < 0 ? src.length : end + 2;
    } else if (c === '\n') {
      tokens.push({ kind: 'nl', text: c });
      i++;
    } else if (c === '"') {
      const j = skipString(src, i);
      tokens.push({ kind: 'string', text: src.slice(i + 1, j - 1) });
      i = j;
    } else if (c === '<' && src[i + 1] === '<') {
      const m = /^<<-?([A-Za-z_][A-Za-z0-9_-]*)\r?\n/.exec(src.slice(i));
      if (m) {
        const close = new RegExp(`^[ \\t]*${m[1]}[ \\t]*$`, 'm');
        const rest = src.slice(i + m[0].length);
        const end = close.exec(rest);
        i = end ? i + m[0].length + end.index + end[0].length : src.length;
        tokens.push({ kind: 'string', text: '' });
      } else {
        tokens.push({ kind: 'other', text: '<' });
        i++;
      }
    } else if (c === '{' || c === '[' || c === '(') {
      tokens.push({ kind: 'open', text: c });
      i++;
    } else if (c === '}' || c === ']' || c === ')') {
      tokens.push({ kind: 'close', text: c });
      i++;
    } else if (c === '=' && src[i + 1] !== '=' && src[i - 1] !== '!' && src[i - 1] !== '<' && src[i - 1] !== '>' && src[i - 1] !== '=') {
      tokens.push({ kind: 'eq', text: c });
      i++;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < src.length && /[A-Za-z0-9_-]/.test(src[j])) j++;
      tokens.push({ kind: 'ident', text: src.slice(i, j) });
      i = j;
    } else {
      if (!/\s/.test(c)) tokens.push({ kind: 'other', text: c });
      i++;
    }
  }
  return tokens;
}

/** From the opening quote at `i`, the index after the closing one; `${ … }` may hold nested strings. */
function skipString(src: string, i: number): number {
  let j = i + 1;
  while (j < src.length) {
    const d = src[j];
    if (d === '\\') j += 2;
    else if (d === '"') return j + 1;
    else if ((d === '$' || d === '%') && src[j + 1] === '{') j = skipTemplateExpr(src, j + 2);
    else j++;
  }
  return j;
}

/** From just inside `${`, the index after its closing brace. */
function skipTemplateExpr(src: string, i: number): number {
  let depth = 1;
  let j = i;
  while (j < src.length && depth > 0) {
    const d = src[j];
    if (d === '"') j = skipString(src, j);
    else {
      if (d === '{') depth++;
      else if (d === '}') depth--;
      j++;
    }
  }
  return j;
}

function scanHcl(text: string): ModuleInterface {
  const tokens = tokenize(text);
  const result: ModuleInterface = { variables: [], outputs: [] };
  let depth = 0;
  let current: ModuleOutputDecl | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'open') {
      depth++;
    } else if (t.kind === 'close') {
      depth--;
      if (depth === 0) current = undefined;
    } else if (depth === 0 && t.kind === 'ident' && (t.text === 'variable' || t.text === 'output')) {
      const name = tokens[i + 1];
      if (name && (name.kind === 'string' || name.kind === 'ident') && tokens[i + 2]?.kind === 'open') {
        current = { name: name.text, sensitive: false };
        (t.text === 'variable' ? result.variables : result.outputs).push(current);
      }
    } else if (depth === 1 && current && t.kind === 'ident' && t.text === 'sensitive' && tokens[i + 1]?.kind === 'eq') {
      const v = tokens[i + 2];
      const after = tokens[i + 3];
      if (v?.kind === 'ident' && v.text === 'true' && (!after || after.kind === 'nl' || after.kind === 'close')) current.sensitive = true;
    }
  }
  return result;
}
