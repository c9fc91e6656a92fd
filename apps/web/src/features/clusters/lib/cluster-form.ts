import { CreateClusterBody, SENSITIVE_PLACEHOLDER, UpdateClusterBody, type Cluster } from '@gantry/contracts';
import { firstIssueMessages } from '../../../ui/form-errors';

/**
 * The cluster form's rules (spec delivery §2, §5), pure so they are tested without a browser: the
 * contracts' schemas on submit (trimmed values), the namespace sent only when "Associate a namespace"
 * is on, and on edit the API token not resent while it is empty or '(sensitive)'.
 */
export interface ClusterFormState {
  name: string;
  endpoint: string;
  /** On edit starts empty (shown with the '(sensitive)' placeholder): the stored token is never known. */
  apiToken: string;
  caCertificate: string;
  associate: boolean;
  namespace: string;
}

export type ClusterFormField = 'name' | 'endpoint' | 'apiToken' | 'caCertificate' | 'namespace' | '_';
export type ClusterFormErrors = Partial<Record<ClusterFormField, string>>;

export const emptyClusterForm = (): ClusterFormState => ({ name: '', endpoint: '', apiToken: '', caCertificate: '', associate: false, namespace: '' });

export function clusterFormFrom(cluster: Cluster): ClusterFormState {
  return {
    name: cluster.name,
    endpoint: cluster.endpoint,
    apiToken: '',
    caCertificate: cluster.caCertificate ?? '',
    associate: Boolean(cluster.associatedNamespace),
    namespace: cluster.associatedNamespace ?? '',
  };
}

/** A token the user did not change on edit: empty, or the placeholder itself. */
export const keepsStoredToken = (value: string) => value.trim() === '' || value.trim() === SENSITIVE_PLACEHOLDER;

export type ClusterSubmit =
  { ok: true; mode: 'create'; body: CreateClusterBody } | { ok: true; mode: 'edit'; body: UpdateClusterBody } | { ok: false; errors: ClusterFormErrors };

/** Body paths of the schemas → the form's fields. */
const FIELD_OF: Record<string, ClusterFormField> = {
  name: 'name',
  endpoint: 'endpoint',
  apiToken: 'apiToken',
  caCertificate: 'caCertificate',
  associatedNamespace: 'namespace',
};

/** Issue messages (a failed parse, or a 400's `fields`) put on the form's fields; unknown paths go to '_'. */
export function toFormErrors(messages: Record<string, string | undefined>): ClusterFormErrors {
  const out: ClusterFormErrors = {};
  for (const [path, message] of Object.entries(messages)) {
    if (!message) continue;
    out[FIELD_OF[path.split('.')[0] ?? ''] ?? '_'] ??= message;
  }
  return out;
}

/** A 400's `fields` ({ path: [messages] }) on the form's fields. */
export const serverFieldErrors = (fields: Record<string, string[]> | undefined) =>
  toFormErrors(Object.fromEntries(Object.entries(fields ?? {}).map(([k, v]) => [k, v[0]])));

/** Validation on submit (spec §5) with the contracts' schema, the same the server applies. */
export function validateClusterForm(form: ClusterFormState, editing: boolean): ClusterSubmit {
  const ca = form.caCertificate.trim();
  const associatedNamespace = form.associate ? form.namespace : undefined;
  if (editing) {
    const parsed = UpdateClusterBody.safeParse({
      endpoint: form.endpoint,
      ...(keepsStoredToken(form.apiToken) ? {} : { apiToken: form.apiToken.trim() }),
      ...(associatedNamespace !== undefined ? { associatedNamespace } : {}),
      // On edit an emptied certificate is sent as '' (no CA any more); left out it would keep the old one.
      caCertificate: ca,
      type: 'personal',
    });
    return parsed.success ? { ok: true, mode: 'edit', body: parsed.data } : { ok: false, errors: toFormErrors(firstIssueMessages(parsed.error)) };
  }
  const parsed = CreateClusterBody.safeParse({
    name: form.name,
    endpoint: form.endpoint,
    apiToken: form.apiToken,
    ...(associatedNamespace !== undefined ? { associatedNamespace } : {}),
    ...(ca ? { caCertificate: ca } : {}),
    type: 'personal',
  });
  return parsed.success ? { ok: true, mode: 'create', body: parsed.data } : { ok: false, errors: toFormErrors(firstIssueMessages(parsed.error)) };
}
