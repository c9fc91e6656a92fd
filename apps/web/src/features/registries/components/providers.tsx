import { IconBrandAws, IconBrandDocker, IconBrandGitlab, IconServer2 } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { ECR_REGIONS, REGISTRY_PROVIDER_NAMES, REGISTRY_PROVIDERS, type DockerRegistry, type RegistryProvider } from '@gantry/contracts';

/** How each provider looks: its name from the contracts, an icon and a colour. */
export const PROVIDER_LOOK: Record<RegistryProvider, { color: string; icon: (size: number) => ReactNode; description: string }> = {
  Dockerhub: { color: 'blue', icon: (s) => <IconBrandDocker size={s} stroke={1.6} />, description: 'Public and private repositories on hub.docker.com' },
  Ecr: { color: 'orange', icon: (s) => <IconBrandAws size={s} stroke={1.6} />, description: 'Amazon Elastic Container Registry of an AWS account' },
  GitlabContainerRegistry: {
    color: 'grape',
    icon: (s) => <IconBrandGitlab size={s} stroke={1.6} />,
    description: 'The container registry of a GitLab group or project',
  },
  DockerRegistryV2: {
    color: 'teal',
    icon: (s) => <IconServer2 size={s} stroke={1.6} />,
    description: 'Any registry speaking the Docker Registry HTTP API v2 (Distribution, Harbor, GHCR, Quay)',
  },
};

export const PROVIDER_OPTIONS = REGISTRY_PROVIDERS.map((p) => ({ value: p, label: REGISTRY_PROVIDER_NAMES[p] }));

export const ECR_REGION_OPTIONS = ECR_REGIONS.map((r) => ({ value: r.id, label: `${r.name} · ${r.id}` }));

/** Where a registry lives, for the list: its URL, the ECR host, or Docker Hub. */
export function registryHost(r: DockerRegistry): string {
  const value = (key: string) => r.credentials.find((c) => c.key === key)?.value ?? '';
  switch (r.provider) {
    case 'Dockerhub':
      return value('docker_username') ? `docker.io/${value('docker_username')}` : 'docker.io';
    case 'Ecr':
      return `${value('aws_account_id') || '—'}.dkr.ecr.${value('aws_region') || ECR_REGIONS[0]!.id}.amazonaws.com`;
    default:
      return value('registry_url') || '—';
  }
}
