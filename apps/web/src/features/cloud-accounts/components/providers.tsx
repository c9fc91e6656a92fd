import { IconBrandAws, IconBrandAzure, IconBrandGoogle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { CLOUD_ACCOUNT_PROVIDER_NAMES, type CloudAccountProvider } from '@gantry/contracts';

/** The three account kinds, in the order of the 'Connect Cloud Account' menu and of the sections (spec §2.9). */
export const CLOUD_PROVIDERS: {
  provider: CloudAccountProvider;
  label: string;
  section: string;
  color: string;
  icon: (size: number) => ReactNode;
  description: string;
}[] = [
  {
    provider: 'aws',
    label: CLOUD_ACCOUNT_PROVIDER_NAMES.aws,
    section: 'AWS Accounts',
    color: 'orange',
    icon: (s) => <IconBrandAws size={s} stroke={1.6} />,
    description: 'An IAM role Gantry assumes with an external ID',
  },
  {
    provider: 'gcp',
    label: CLOUD_ACCOUNT_PROVIDER_NAMES.gcp,
    section: 'Google Cloud Platform Accounts',
    color: 'blue',
    icon: (s) => <IconBrandGoogle size={s} stroke={1.6} />,
    description: 'A service account Gantry impersonates',
  },
  {
    provider: 'azure',
    label: CLOUD_ACCOUNT_PROVIDER_NAMES.azure,
    section: 'Microsoft Azure Accounts',
    color: 'cyan',
    icon: (s) => <IconBrandAzure size={s} stroke={1.6} />,
    description: 'An app registration with a client secret',
  },
];

export const cloudProviderOf = (provider: CloudAccountProvider) => CLOUD_PROVIDERS.find((p) => p.provider === provider)!;
