import type { ContainerScan, ImageCommit, RegistryProvider, RepositoryVersions } from '@gantry/contracts';

/** Where and how a build pushes an image to one of the project's registries. */
export interface RegistryPushTarget {
  registryName: string;
  provider: RegistryProvider;
  /** host[:port] as it goes into an image reference (docker.io for Docker Hub). */
  host: string;
  /** Path before the image name: the Docker Hub user, a GitLab group/project path; '' when none. */
  repositoryPrefix: string;
  username: string;
  /** A password or short-lived token (ECR's authorization token); never logged, never written to the workspace. */
  password: string;
  /** false for a plain-HTTP registry (registry_url given as http://…). */
  tls: boolean;
}

/** What the registries module offers other modules (builds push through it; services list versions). */
export interface RegistriesPort {
  /** The named registry of the project, or its default one when `registryName` is empty; NotFound/Validation errors otherwise. */
  pushTarget(projectId: string, registryName?: string | null): Promise<RegistryPushTarget>;
  /** The registry's own scan of a pushed image (ECR image scanning), or null when the provider has none. */
  registryScan(projectId: string, registryName: string, repository: string, digest: string): Promise<ContainerScan | null>;
}

/** The versions of a repository (services list them for the deploy dialog). */
export interface RegistryVersionsPort {
  /** One page of a repository's tags, `latest` first then newest (a 503 AppError while the registry is unavailable). */
  versions(projectId: string, registryName: string, q: { repository: string; offset: number; limit: number }): Promise<RepositoryVersions>;
  /** The commit one tag's image was built from (its labels, as versions reads them); null without one or when the registry cannot tell now. */
  commitOf(projectId: string, registryName: string, q: { repository: string; tag: string }): Promise<ImageCommit | null>;
}
