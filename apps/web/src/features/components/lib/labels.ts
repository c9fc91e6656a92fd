export { repositoryWebUrl, repositoryName } from '@gantry/contracts';
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
