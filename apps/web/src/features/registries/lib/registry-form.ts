import {
  CreateRegistryBody,
  ECR_REGIONS,
  GITLAB_HIERARCHY_TYPES,
  REGISTRY_CREDENTIAL_KEYS,
  REGISTRY_PROVIDERS,
  SENSITIVE_PLACEHOLDER,
  UpdateRegistryBody,
  registryCredentialErrors,
  registryMessages,
  type DockerRegistry,
  type RegistryCredential,
  type RegistryProvider,
} from '@gantry/contracts';
import { firstIssueMessages } from '../../../ui/form-errors';

/**
 * The registry form's rules (spec delivery §2, §5), pure so they are tested without a browser:
 * per-provider required fields, trimmed credentials, and the '(sensitive)' placeholder rule on edit.
 */
export interface RegistryFormState {
  name: string;
  provider: string | null;
  isDefault: boolean;
  /** Credential values by key, as typed; on edit a sensitive key starts empty (shown with the '(sensitive)' placeholder). */
  credentials: Record<string, string>;
}

export type RegistryFormErrors = Record<string, string | undefined>;

export const isRegistryProvider = (p: string | null | undefined): p is RegistryProvider => (REGISTRY_PROVIDERS as readonly string[]).includes(p ?? '');

/** Values a provider starts with: the first ECR region, GitLab 'groups'. */
export function defaultCredentials(provider: string | null): Record<string, string> {
  if (provider === 'Ecr') return { aws_region: ECR_REGIONS[0]!.id };
  if (provider === 'GitlabContainerRegistry') return { gitlab_hierarchy_type: GITLAB_HIERARCHY_TYPES[0] };
  return {};
}

export const emptyRegistryForm = (): RegistryFormState => ({ name: '', provider: null, isDefault: false, credentials: {} });

/** The form of an existing registry: sensitive values are never known, so they start empty. */
export function registryFormFrom(registry: DockerRegistry): RegistryFormState {
  const credentials: Record<string, string> = {};
  for (const c of registry.credentials) credentials[c.key] = c.sensitive || c.value === SENSITIVE_PLACEHOLDER ? '' : c.value;
  return {
    name: registry.registryName,
    provider: registry.provider,
    isDefault: registry.isDefault,
    credentials: { ...defaultCredentials(registry.provider), ...credentials },
  };
}

/** The provider switched on the add form: its own defaults; values of keys both providers share stay. */
export function switchProvider(form: RegistryFormState, provider: string | null): RegistryFormState {
  const keep = new Set((isRegistryProvider(provider) ? REGISTRY_CREDENTIAL_KEYS[provider] : []).map((k) => k.key));
  const kept = Object.fromEntries(Object.entries(form.credentials).filter(([k, v]) => keep.has(k) && v.trim() !== ''));
  return { ...form, provider, credentials: { ...defaultCredentials(provider), ...kept } };
}

/** A sensitive value the user did not change on edit: empty, or the placeholder itself. */
export const keepsStoredValue = (value: string) => value.trim() === '' || value.trim() === SENSITIVE_PLACEHOLDER;

/**
 * The per-provider rules of spec §5 — the contracts' `registryCredentialErrors`, the same the server
 * applies — on trimmed values; on edit an untouched sensitive value stands for the stored one.
 */
export function credentialErrors(provider: RegistryProvider, values: Record<string, string>, editing: boolean): RegistryFormErrors {
  const checked: Record<string, string> = { ...values };
  if (editing)
    for (const { key, sensitive } of REGISTRY_CREDENTIAL_KEYS[provider])
      if (sensitive && keepsStoredValue(values[key] ?? '')) checked[key] = SENSITIVE_PLACEHOLDER;
  return Object.fromEntries(Object.entries(registryCredentialErrors(provider, checked)).map(([k, v]) => [k, v[0]]));
}

/**
 * The credentials sent: this provider's keys only, trimmed, empty ones left out; on edit a sensitive
 * value left empty or as '(sensitive)' is left out too (the server keeps the stored one).
 */
export function credentialsToSend(provider: RegistryProvider, values: Record<string, string>, editing: boolean): RegistryCredential[] {
  const out: RegistryCredential[] = [];
  for (const { key, sensitive } of REGISTRY_CREDENTIAL_KEYS[provider]) {
    const value = (values[key] ?? '').trim();
    if (!value) continue;
    if (editing && sensitive && keepsStoredValue(value)) continue;
    out.push({ key, value, sensitive });
  }
  return out;
}

export type RegistrySubmit =
  { ok: true; mode: 'create'; body: CreateRegistryBody } | { ok: true; mode: 'edit'; body: UpdateRegistryBody } | { ok: false; errors: RegistryFormErrors };

/** Validation on submit (spec §5): the contracts' schema for the body, then the provider's own rules. */
export function validateRegistryForm(form: RegistryFormState, editing: boolean): RegistrySubmit {
  const errors: RegistryFormErrors = {};
  if (!form.provider) errors.provider = registryMessages.required('Docker provider');
  else if (!isRegistryProvider(form.provider)) errors.provider = registryMessages.unsupportedProvider;
  const provider = isRegistryProvider(form.provider) ? form.provider : null;
  const credentials = provider ? credentialsToSend(provider, form.credentials, editing) : [];
  if (provider) Object.assign(errors, credentialErrors(provider, form.credentials, editing));

  if (editing) {
    const parsed = UpdateRegistryBody.safeParse({ isDefault: form.isDefault, credentials });
    if (!parsed.success) errors._ ??= Object.values(firstIssueMessages(parsed.error))[0];
    if (Object.values(errors).some(Boolean) || !parsed.success) return { ok: false, errors };
    return { ok: true, mode: 'edit', body: parsed.data };
  }
  const parsed = CreateRegistryBody.safeParse({ name: form.name, isDefault: form.isDefault, provider: form.provider ?? '', credentials });
  if (!parsed.success) {
    const issues = firstIssueMessages(parsed.error);
    if (issues.name) errors.name = issues.name;
    else errors._ ??= Object.values(issues)[0];
  }
  if (Object.values(errors).some(Boolean) || !parsed.success) return { ok: false, errors };
  return { ok: true, mode: 'create', body: parsed.data };
}

/**
 * A 400's `fields` put on the form's inputs: `name`, `provider`, a credential key (bare or as
 * `credentials.<key>`), or `credentials.<i>.value` for the i-th credential sent.
 */
export function serverFieldErrors(fields: Record<string, string[]> | undefined, sent: readonly { key: string }[]): RegistryFormErrors {
  const out: RegistryFormErrors = {};
  for (const [path, messages] of Object.entries(fields ?? {})) {
    const message = messages[0];
    if (!message) continue;
    const parts = path.split('.');
    let target = path;
    if (parts[0] === 'credentials' && parts.length > 1) {
      const index = Number(parts[1]);
      target = Number.isInteger(index) ? (sent[index]?.key ?? '_') : parts[1]!;
    } else if (parts[0] === 'credentials') target = '_';
    out[target] ??= message;
  }
  return out;
}
