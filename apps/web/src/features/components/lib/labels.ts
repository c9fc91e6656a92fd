import { INFRA_CLOUD_PROVIDER_LABELS, type IacTool, type InfraCloudProvider } from '@gantry/contracts';

/** Screen names of the IaC tools (spec §2 filter: All, Cloudformation, Terraform). */
export const IAC_LABELS: Record<IacTool, string> = { cloudformation: 'Cloudformation', terraform: 'Terraform' };

export const providerLabel = (p: InfraCloudProvider) => INFRA_CLOUD_PROVIDER_LABELS[p] ?? p;
/** Short provider names for badges. */
export const PROVIDER_SHORT: Record<InfraCloudProvider, string> = { aws: 'AWS', azurerm: 'Azure', google: 'GCP' };

/** The types offered by the form (spec §3); the lower-case forms are only shown, never offered. */
export const FORM_TYPES = ['Kubernetes', 'Database', 'Storage', 'VirtualMachine', 'Lambda', 'Vpc', 'Other'] as const;

const TYPE_LABELS: Record<string, string> = {
  kubernetes: 'Kubernetes',
  database: 'Database',
  storage: 'Storage',
  virtualmachine: 'Virtual Machine',
  'virtual-machine': 'Virtual Machine',
  lambda: 'Lambda',
  vpc: 'VPC',
  other: 'Other',
};
export const typeLabel = (type: string) => TYPE_LABELS[type.toLowerCase()] ?? type;

/** A browsable https address of a repository URL (https or scp-like git@host:owner/repo.git). */
export function repositoryWebUrl(repositoryUrl: string | null | undefined): string | null {
  if (!repositoryUrl) return null;
  let url = repositoryUrl.trim();
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(url);
  if (scp) url = `https://${scp[1]}/${scp[2]}`;
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\.git\/?$/, '').replace(/\/$/, '');
  } catch {
    return null;
  }
}

/** owner/repo of a repository URL, for display. */
export function repositoryName(repositoryUrl: string | null | undefined): string {
  const web = repositoryWebUrl(repositoryUrl);
  if (!web) return repositoryUrl ?? '';
  try {
    return new URL(web).pathname.replace(/^\/+/, '');
  } catch {
    return web;
  }
}

/** A schema default as text: strings as they are, other values as JSON; '—' when none. */
export function formatDefault(value: unknown): string {
  if (value === undefined || value === null) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
