import { z } from 'zod';
import {
  AUTOSCALING_CONFIG_KEYS,
  DeployDialogForm,
  autoScalingFrom,
  deployMessages,
  envRowComplete,
  serviceInputErrors,
  type AutoScaling,
  type DeployBody,
  type ServiceSchema,
} from '@gantry/contracts';

/** The deploy dialog's values (spec §5): numbers may be '' while typed; rows and schema inputs as strings. */
export type DeployFormValues = {
  version: string | null;
  namespace: string | null;
  autoScaling: { [K in keyof AutoScaling]: number | string };
  environmentVariables: { key: string; value: string }[];
  inputs: Record<string, string>;
};

const SCALING_KEYS = new Set(Object.values(AUTOSCALING_CONFIG_KEYS));

/**
 * The dialog's first values: the stored configuration of the service's last deploy in this namespace over the
 * §9 defaults (spec §9: MIC_AS_* values override them); schema inputs from it or their defaults, the other
 * stored variables as rows. A namespace given by the caller (a dashboard tab, an associated namespace) is kept.
 */
export function deployFormInitial(
  schema: Pick<ServiceSchema, 'inputs'>,
  configurations: readonly { key: string; value: string }[] = [],
  namespace: string | null = null,
): DeployFormValues {
  const inputNames = new Set(schema.inputs.map((i) => i.name));
  const stored = new Map(configurations.map((c) => [c.key, c.value]));
  return {
    version: null,
    namespace,
    autoScaling: autoScalingFrom(configurations),
    environmentVariables: configurations.filter((c) => !SCALING_KEYS.has(c.key) && !inputNames.has(c.key)).map((c) => ({ key: c.key, value: c.value })),
    inputs: Object.fromEntries(schema.inputs.map((i) => [i.name, stored.get(i.name) ?? i.default ?? ''])),
  };
}

/** Spec §5: another row may be added only when every row has a key and a value. */
export const canAddEnvRow = (rows: readonly { key: string; value: string }[]) => rows.every(envRowComplete);

const toNumber = (v: number | string) => (typeof v === 'number' ? v : v.trim() === '' ? Number.NaN : Number(v));

/** What the contracts' DeployDialogForm is given: numbers as numbers ('' → a required message), empty rows left out. */
export const deployFormInput = (v: DeployFormValues) => ({
  version: v.version ?? '',
  namespace: v.namespace ?? '',
  autoScaling: Object.fromEntries(Object.entries(v.autoScaling).map(([k, n]) => [k, toNumber(n)])),
  environmentVariables: v.environmentVariables,
  inputs: v.inputs,
});

/**
 * The dialog's schema (spec §5): version, namespace and the scaling bounds from the contracts; each environment row
 * complete ('Please enter key and value') unless wholly empty; each schema input valid for the service. Every message
 * lands on its field (`inputs.NAME`, `environmentVariables.2.key`).
 */
export function deployFormSchema(schema: Pick<ServiceSchema, 'inputs'>) {
  return DeployDialogForm.superRefine((v, ctx) => {
    v.environmentVariables.forEach((row, i) => {
      if (row.key.trim() === '' && row.value === '') return;
      if (!envRowComplete(row))
        ctx.addIssue({ code: 'custom', path: ['environmentVariables', i, row.key.trim() ? 'value' : 'key'], message: deployMessages.envRowIncomplete });
    });
    for (const [name, message] of Object.entries(serviceInputErrors(schema, v.inputs))) ctx.addIssue({ code: 'custom', path: ['inputs', name], message });
  });
}
export type ParsedDeployForm = z.output<typeof DeployDialogForm>;

/**
 * The deploy payload (spec §3): the version, the environment rows and the schema inputs as configurations (an input
 * left empty takes its default; a sensitive one still '(sensitive)' keeps the stored value on the server), and the
 * autoscaling numbers.
 */
export function toDeployBody(v: ParsedDeployForm, schema: Pick<ServiceSchema, 'inputs'>): DeployBody {
  const rows = v.environmentVariables.filter((r) => r.key.trim() !== '').map((r) => ({ key: r.key.trim(), value: r.value }));
  const inputs = schema.inputs.map((i) => ({ key: i.name, value: v.inputs[i.name] || i.default || '' })).filter((c) => c.value !== '');
  const inputNames = new Set(inputs.map((c) => c.key));
  return {
    version: v.version,
    deployment: { configurations: [...rows.filter((r) => !inputNames.has(r.key)), ...inputs] },
    autoScaling: v.autoScaling,
  };
}

/**
 * The stored configuration of a namespace arriving (or another namespace chosen): every value the user has not
 * touched since the last base takes the new base's value; what the user typed meanwhile stays.
 */
export function rebaseDeployForm(current: DeployFormValues, previousBase: DeployFormValues, nextBase: DeployFormValues): Partial<DeployFormValues> {
  const pick = <T extends Record<string, unknown>>(cur: T, prev: T, next: T) =>
    Object.fromEntries(Object.keys({ ...prev, ...next }).map((k) => [k, cur[k] !== prev[k] && k in cur ? cur[k] : next[k]])) as T;
  const sameRows = JSON.stringify(current.environmentVariables) === JSON.stringify(previousBase.environmentVariables);
  return {
    autoScaling: pick(current.autoScaling, previousBase.autoScaling, nextBase.autoScaling),
    inputs: pick(current.inputs, previousBase.inputs, nextBase.inputs),
    environmentVariables: sameRows ? nextBase.environmentVariables : current.environmentVariables,
  };
}
