import crypto from 'node:crypto';

/** One RBAC-like rule: `*` matches anything; resources may name subresources (`pods/log`). */
export interface TokenRule {
  verbs: string[];
  resources: string[];
  /** API groups ('' is core); default ['*']. */
  apiGroups?: string[];
  /** Namespaces the rule applies in; default ['*'] (all, and cluster-scoped resources too). */
  namespaces?: string[];
}

export interface TokenInfo {
  token: string;
  user: string;
  groups: string[];
  rules: TokenRule[];
}

export interface Attributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export const ADMIN_RULES: TokenRule[] = [{ verbs: ['*'], resources: ['*'], apiGroups: ['*'], namespaces: ['*'] }];

const has = (list: string[] | undefined, value: string) => !list || list.includes('*') || list.includes(value);

export function isAllowed(rules: TokenRule[], a: Attributes): boolean {
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return rules.some(
    (r) =>
      has(r.verbs, a.verb) &&
      has(r.apiGroups, a.group) &&
      (has(r.resources, resource) || (a.subresource !== undefined && r.resources.includes(`${a.resource}/*`))) &&
      // a namespace-limited rule never grants cluster-scoped access (as a RoleBinding would not)
      (r.namespaces === undefined || r.namespaces.includes('*') || (a.namespace !== undefined && r.namespaces.includes(a.namespace))),
  );
}

export class TokenRegistry {
  private readonly tokens = new Map<string, TokenInfo>();

  add(o: { user: string; rules?: TokenRule[]; groups?: string[]; token?: string }): TokenInfo {
    const info: TokenInfo = {
      token: o.token ?? `standin-${crypto.randomBytes(18).toString('base64url')}`,
      user: o.user,
      groups: o.groups ?? ['system:authenticated'],
      rules: o.rules ?? ADMIN_RULES,
    };
    this.tokens.set(info.token, info);
    return info;
  }

  revoke(token: string) {
    this.tokens.delete(token);
  }

  /** The token's holder for an `Authorization: Bearer` header, or undefined. */
  authenticate(header: string | undefined): TokenInfo | undefined {
    const m = /^Bearer\s+(\S+)$/i.exec(header ?? '');
    return m ? this.tokens.get(m[1]) : undefined;
  }
}
