import type { ContainerScan } from '@gantry/contracts';

/** A provider's refusal or failure; `status` is the provider's HTTP status when there was one. */
export class RegistryFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'RegistryFailure';
  }
  /** The registry is overloaded or down for a while (503/429): the caller may retry. */
  get unavailable() {
    return this.status === 503 || this.status === 429;
  }
}

/** One tag of a repository as the provider tells it; `labels` undefined when the provider did not say (see `labels`). */
export interface RegistryTag {
  name: string;
  date: string | null;
  digest: string | null;
  labels?: Record<string, string>;
}

export interface PushCredentials {
  host: string;
  repositoryPrefix: string;
  username: string;
  password: string;
  tls: boolean;
}

/**
 * One registry account, whatever the provider. Repository names are relative to the push prefix (the Docker Hub
 * user, the GitLab group/project path, the registry_url path), so `repository` is what a build names its image.
 */
export interface RegistryAdapter {
  /** Proves the credentials (throws RegistryFailure with the provider's reason). */
  verify(): Promise<void>;
  listRepositories(): Promise<string[]>;
  listTags(repository: string): Promise<RegistryTag[]>;
  /** The image config's labels of one tag (for providers whose tag list does not carry them); {} when unknown. */
  labels(repository: string, tag: string): Promise<Record<string, string>>;
  pushTarget(): Promise<PushCredentials>;
  /** The registry's own scan of an image, or null when it has none. */
  scan(repository: string, digest: string): Promise<ContainerScan | null>;
}

export const errorMessage = (err: unknown) => (err instanceof Error ? err.message : String(err));
