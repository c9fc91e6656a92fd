/**
 * Dotted paths into a form's values ('name', 'environmentVariables.2.key'), typed from the values' shape,
 * and the immutable get/set the form store uses.
 */
type Primitive = string | number | boolean | bigint | symbol | null | undefined | Date;

/** Every dotted path of T: object keys, list indexes, and the paths inside them. */
export type FieldPath<T> = T extends Primitive
  ? never
  : T extends readonly (infer E)[]
    ? `${number}` | `${number}.${FieldPath<E>}`
    : { [K in keyof T & string]: K | (NonNullable<T[K]> extends Primitive ? never : `${K}.${FieldPath<NonNullable<T[K]>>}`) }[keyof T & string];

/** The type found at path P of T. */
export type PathValue<T, P extends string> = T extends readonly (infer E)[]
  ? P extends `${number}.${infer R}`
    ? PathValue<E, R>
    : E
  : P extends `${infer K}.${infer R}`
    ? K extends keyof T
      ? PathValue<NonNullable<T[K]>, R>
      : never
    : P extends keyof T
      ? T[P]
      : never;

const split = (path: string) => (path === '' ? [] : path.split('.'));

export function getIn(values: unknown, path: string): unknown {
  let cur = values;
  for (const key of split(path)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** A copy of `values` with `value` at `path`; the objects and lists on the way are copied, the rest is shared. */
export function setIn<T>(values: T, path: string, value: unknown): T {
  const keys = split(path);
  if (!keys.length) return value as T;
  const go = (cur: unknown, i: number): unknown => {
    const key = keys[i]!;
    const next = i === keys.length - 1 ? value : go(cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined, i + 1);
    if (Array.isArray(cur)) {
      const copy = [...cur];
      copy[Number(key)] = next;
      return copy;
    }
    return { ...(cur && typeof cur === 'object' ? cur : {}), [key]: next };
  };
  return go(values, 0) as T;
}

/** Whether `path` is `prefix` itself or lies under it ('variables.2.key' is under 'variables' and 'variables.2'). */
export const isUnder = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}.`);
