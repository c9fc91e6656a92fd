import { INFRA_CLOUD_PROVIDER_LABELS, stackStatusDisplay, type InfraCloudProvider } from '@gantry/contracts';

export const providerLabel = (p: string) => INFRA_CLOUD_PROVIDER_LABELS[p as InfraCloudProvider] ?? p;
export const toolLabel = (t: string) => (t === 'cloudformation' ? 'Cloudformation' : 'Terraform');
export const statusLabel = stackStatusDisplay;
/** Versions and commits show 7 characters; LATEST as is. */
export const versionText = (v: string | null | undefined) => (!v ? '—' : v === 'LATEST' ? 'LATEST' : v.slice(0, 7));
