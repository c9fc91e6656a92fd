/** The API server's `Status` object and the errors that carry one (metav1.Status, as kubectl prints them). */

export class KubeError extends Error {
  constructor(
    readonly code: number,
    readonly status: Record<string, unknown>,
  ) {
    super(String(status.message));
  }
}

export function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code };
}

const fail = (code: number, reason: string, message: string, details?: Record<string, unknown>) =>
  new KubeError(code, statusBody(code, reason, message, details));

/** `pods`, or `deployments.apps` for a named group (how the server names a resource in messages). */
export const qualified = (resource: string, group: string) => (group ? `${resource}.${group}` : resource);
const details = (name: string, resource: string, group: string) => ({ name, ...(group ? { group } : {}), kind: resource });

export const unauthorized = () => fail(401, 'Unauthorized', 'Unauthorized');
export const notFound = (resource: string, group: string, name: string) =>
  fail(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, details(name, resource, group));
export const pathNotFound = () => fail(404, 'NotFound', 'the server could not find the requested resource', {});
export const alreadyExists = (resource: string, group: string, name: string) =>
  fail(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, details(name, resource, group));
export const conflict = (resource: string, group: string, name: string) =>
  fail(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    details(name, resource, group),
  );
export const badRequest = (message: string) => fail(400, 'BadRequest', message);
export const methodNotAllowed = () => fail(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
export const unsupportedMediaType = (type: string) =>
  fail(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${type})`,
  );
export const invalid = (kind: string, group: string, name: string, causes: { field: string; message: string }[]) =>
  fail(422, 'Invalid', `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${causes.map((c) => `${c.field}: ${c.message}`).join(', ')}`, {
    name,
    ...(group ? { group } : {}),
    kind,
    causes: causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })),
  });
export const gone = (message: string) => fail(410, 'Expired', message);
export const forbidden = (user: string, verb: string, resource: string, group: string, namespace: string | undefined, name?: string) =>
  fail(
    403,
    'Forbidden',
    `${name ? `${qualified(resource.split('/')[0], group)} "${name}"` : qualified(resource.split('/')[0], group)} is forbidden: User "${user}" cannot ${verb} resource "${resource}" in API group "${group}" ${namespace ? `in the namespace "${namespace}"` : 'at the cluster scope'}`,
    { ...(name ? { name } : {}), ...(group ? { group } : {}), kind: resource.split('/')[0] },
  );
