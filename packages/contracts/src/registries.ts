import { z } from 'zod';
import { InputText, SENSITIVE_PLACEHOLDER } from './common.js';
import { ProjectIdParams } from './projects.js';

/**
 * Docker registries of a project (spec delivery §2 Docker registries, §3, §5 Registry form, §7, §8),
 * served under /ms-kube/projects/:projectId/docker-registries. Beyond the spec: a generic Docker
 * Registry v2 provider (self-hosted Distribution, Harbor, GHCR, Quay).
 */
export const REGISTRY_PROVIDERS = ['Dockerhub', 'Ecr', 'GitlabContainerRegistry', 'DockerRegistryV2'] as const;
export type RegistryProvider = (typeof REGISTRY_PROVIDERS)[number];

export const REGISTRY_PROVIDER_NAMES: Record<RegistryProvider, string> = {
  Dockerhub: 'Docker Hub',
  Ecr: 'Amazon ECR',
  GitlabContainerRegistry: 'Gitlab Container Registry',
  DockerRegistryV2: 'Docker Registry v2',
};

/** The 23 ECR regions (spec §9: us-east-1 style, China and GovCloud included); the first is the default. */
export const ECR_REGIONS: readonly { id: string; name: string }[] = [
  { id: 'us-east-1', name: 'US East (N. Virginia)' },
  { id: 'us-east-2', name: 'US East (Ohio)' },
  { id: 'us-west-1', name: 'US West (N. California)' },
  { id: 'us-west-2', name: 'US West (Oregon)' },
  { id: 'ap-east-1', name: 'Asia Pacific (Hong Kong)' },
  { id: 'ap-south-1', name: 'Asia Pacific (Mumbai)' },
  { id: 'ap-northeast-1', name: 'Asia Pacific (Tokyo)' },
  { id: 'ap-northeast-2', name: 'Asia Pacific (Seoul)' },
  { id: 'ap-northeast-3', name: 'Asia Pacific (Osaka)' },
  { id: 'ap-southeast-1', name: 'Asia Pacific (Singapore)' },
  { id: 'ap-southeast-2', name: 'Asia Pacific (Sydney)' },
  { id: 'ca-central-1', name: 'Canada (Central)' },
  { id: 'cn-north-1', name: 'China (Beijing)' },
  { id: 'cn-northwest-1', name: 'China (Ningxia)' },
  { id: 'eu-central-1', name: 'Europe (Frankfurt)' },
  { id: 'eu-west-1', name: 'Europe (Ireland)' },
  { id: 'eu-west-2', name: 'Europe (London)' },
  { id: 'eu-west-3', name: 'Europe (Paris)' },
  { id: 'eu-north-1', name: 'Europe (Stockholm)' },
  { id: 'me-south-1', name: 'Middle East (Bahrain)' },
  { id: 'sa-east-1', name: 'South America (São Paulo)' },
  { id: 'us-gov-east-1', name: 'AWS GovCloud (US-East)' },
  { id: 'us-gov-west-1', name: 'AWS GovCloud (US-West)' },
];

export const GITLAB_HIERARCHY_TYPES = ['groups', 'projects'] as const;
export const GITLAB_HIERARCHY_NAMES: Record<(typeof GITLAB_HIERARCHY_TYPES)[number], string> = { groups: 'group', projects: 'personal project' };

/** The credential keys of each provider (spec §3 form fields); `sensitive` ones are sealed and never returned. */
export const REGISTRY_CREDENTIAL_KEYS: Record<RegistryProvider, readonly { key: string; label: string; sensitive: boolean }[]> = {
  Dockerhub: [
    { key: 'docker_username', label: 'Username', sensitive: false },
    { key: 'docker_password', label: 'Password or access token', sensitive: true },
  ],
  Ecr: [
    { key: 'aws_account_id', label: 'AWS account id', sensitive: false },
    { key: 'aws_region', label: 'Region', sensitive: false },
    { key: 'aws_access_key_id', label: 'Access key id', sensitive: false },
    { key: 'aws_secret_access_key', label: 'Secret access key', sensitive: true },
  ],
  GitlabContainerRegistry: [
    { key: 'registry_url', label: 'Registry URL', sensitive: false },
    { key: 'gitlab_hierarchy_type', label: 'Hierarchy type', sensitive: false },
    { key: 'gitlab_id', label: 'Group or project id', sensitive: false },
    { key: 'docker_username', label: 'Token name', sensitive: false },
    { key: 'docker_password', label: 'Token value', sensitive: true },
  ],
  DockerRegistryV2: [
    { key: 'registry_url', label: 'Registry URL', sensitive: false },
    { key: 'docker_username', label: 'Username', sensitive: false },
    { key: 'docker_password', label: 'Password or token', sensitive: true },
  ],
};

export const registryMessages = {
  created: (name: string) => `You have successfully added registry ${name}`,
  edited: (name: string) => `You have successfully edited registry ${name}`,
  unsupportedProvider: 'Not supported docker provider type',
  repositoriesFailed: "Can't fetch repositories for selected registry",
  nameRule: 'Registry name must be lowercase letters, digits, "-" or ".", starting and ending with a letter or digit',
  notFound: 'Docker registry not found',
  exists: (name: string) => `A registry named ${name} already exists in this project`,
  verifyFailed: (provider: RegistryProvider, reason: string) => `${REGISTRY_PROVIDER_NAMES[provider]} refused the credentials: ${reason}`,
  required: (label: string) => `${label} is required`,
  registryUrl: 'Registry URL must be a host with an optional port (an http:// or https:// prefix is allowed)',
  /** A stored secret is sent only to the registry it was given for. */
  secretForNewUrl: (label: string) => `Enter the ${label.toLowerCase()} again to change the registry's host`,
  awsAccountId: 'AWS account id must be 12 digits',
  awsRegion: 'Please choose one of the listed regions',
  hierarchyType: 'Hierarchy type must be groups or projects',
} as const;

/** Spec §5: lowercase alphanumerics, '-' or '.', starting and ending alphanumeric. */
export const REGISTRY_NAME = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/;
export const RegistryName = InputText({ error: registryMessages.required('Registry name') })
  .trim()
  .min(1, registryMessages.required('Registry name'))
  .max(63, 'Registry name must be at most 63 characters')
  .regex(REGISTRY_NAME, registryMessages.nameRule);

/** host[:port], optionally with an http:// or https:// scheme (http:// means a plain-HTTP registry), no path for GitLab. */
export const REGISTRY_URL = /^(https?:\/\/)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?(\/[a-z0-9._/-]*)?$/i;

export const RegistryCredential = z.object({
  key: InputText().min(1),
  /** Trimmed (spec §5: docker credentials are trimmed before submit — the server trims too). */
  value: InputText().transform((v) => v.trim()),
  sensitive: z.boolean().optional(),
});
export type RegistryCredential = z.infer<typeof RegistryCredential>;

/** POST body; the per-provider keys are checked by the service (`registryCredentialErrors`). */
export const CreateRegistryBody = z.object({
  name: RegistryName,
  isDefault: z.boolean().default(false),
  provider: InputText(),
  credentials: z.array(RegistryCredential).max(20),
});
export type CreateRegistryBody = z.infer<typeof CreateRegistryBody>;

/** PUT body: name and provider are locked; a sensitive value left as '(sensitive)' (or out) keeps the stored one. */
export const UpdateRegistryBody = z.object({
  isDefault: z.boolean().default(false),
  credentials: z.array(RegistryCredential).max(20),
});
export type UpdateRegistryBody = z.infer<typeof UpdateRegistryBody>;

/** What a read answers: sensitive values are always the placeholder. */
export const DockerRegistry = z.object({
  registryName: z.string(),
  isDefault: z.boolean(),
  provider: z.enum(REGISTRY_PROVIDERS),
  credentials: z.array(z.object({ key: z.string(), value: z.string(), sensitive: z.boolean() })),
  createdAt: z.string(),
});
export type DockerRegistry = z.infer<typeof DockerRegistry>;
export const DockerRegistryList = z.object({ dockerRegistries: z.array(DockerRegistry) });
export type DockerRegistryList = z.infer<typeof DockerRegistryList>;

export const RegistryParams = ProjectIdParams.extend({ registryName: InputText().min(1) });

export const DockerRepository = z.object({ name: z.string() });
export const DockerRepositoryList = z.object({ repositories: z.array(DockerRepository) });
export type DockerRepositoryList = z.infer<typeof DockerRepositoryList>;

/** The commit an image was built from, read back from the image's labels (GANTRY_IMAGE_LABELS). */
export const ImageCommit = z.object({
  sha: z.string(),
  message: z.string(),
  name: z.string(),
  user: z.object({ name: z.string(), avatar: z.string() }),
});
export type ImageCommit = z.infer<typeof ImageCommit>;

/** A version of a repository: one tag (spec §3 service version tag: name, date, commit). */
export const ImageTag = z.object({
  name: z.string(),
  date: z.string().nullable(),
  digest: z.string().nullable(),
  commit: ImageCommit.nullable(),
});
export type ImageTag = z.infer<typeof ImageTag>;

export const RepositoryVersionsQuery = z.object({
  repository: InputText().min(1),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});
/** Newest first with `latest` first; `lastElementCursor` is the next offset, or -1 when no more (spec §4). */
export const RepositoryVersions = z.object({ tags: z.array(ImageTag), lastElementCursor: z.number().int() });
export type RepositoryVersions = z.infer<typeof RepositoryVersions>;

/** The image labels a `docker-push` step sets, and the registries read back as a tag's commit. */
export const GANTRY_IMAGE_LABELS = {
  revision: 'org.opencontainers.image.revision',
  created: 'org.opencontainers.image.created',
  source: 'org.opencontainers.image.source',
  message: 'io.gantry.commit.message',
  author: 'io.gantry.commit.author',
  avatar: 'io.gantry.commit.avatar',
  pipeline: 'io.gantry.pipeline',
  build: 'io.gantry.build',
} as const;

/** A step's `reports.containerScan` (spec §3); shown only when a scan ran. */
export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL', 'UNDEFINED'] as const;
export const ContainerScan = z.object({
  imageName: z.string(),
  imageTag: z.string(),
  status: z.enum(['COMPLETE', 'FAILED']),
  statusDescription: z.string(),
  severityCounts: z.partialRecord(z.enum(SEVERITIES), z.number().int()),
  scanner: z.string(),
});
export type ContainerScan = z.infer<typeof ContainerScan>;

/** The credentials a registry answers on read: sensitive values replaced by the placeholder. */
export const maskedCredentials = (provider: RegistryProvider, values: Record<string, string>) =>
  REGISTRY_CREDENTIAL_KEYS[provider]
    .filter((k) => values[k.key] !== undefined)
    .map((k) => ({ key: k.key, value: k.sensitive ? SENSITIVE_PLACEHOLDER : values[k.key]!, sensitive: k.sensitive }));

/** A registry_url split into what a client needs: `tls` false for http://, host[:port], and the path (no slashes around). */
export function parseRegistryUrl(url: string): { tls: boolean; host: string; path: string } {
  const m = /^(?:(https?):\/\/)?([^/]+)(?:\/(.*))?$/i.exec(url.trim());
  return { tls: m?.[1]?.toLowerCase() !== 'http', host: (m?.[2] ?? '').toLowerCase(), path: (m?.[3] ?? '').replace(/^\/+|\/+$/g, '') };
}

/**
 * The field errors of a provider's credentials (spec §5; keyed by credential key, empty when valid): every key of
 * the provider is required, registry_url is a host with an optional port (GitLab: no path), the AWS account id
 * 12 digits, the region one of ECR_REGIONS, the GitLab hierarchy type groups or projects. Keys the provider does
 * not know are ignored. The server and the form use the same rules.
 */
export function registryCredentialErrors(provider: RegistryProvider, values: Record<string, string | undefined>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  for (const { key, label } of REGISTRY_CREDENTIAL_KEYS[provider]) {
    const value = values[key]?.trim() ?? '';
    if (!value) {
      add(key, registryMessages.required(label));
      continue;
    }
    if (key === 'registry_url' && (!REGISTRY_URL.test(value) || (provider === 'GitlabContainerRegistry' && parseRegistryUrl(value).path)))
      add(key, registryMessages.registryUrl);
    if (key === 'aws_account_id' && !/^\d{12}$/.test(value)) add(key, registryMessages.awsAccountId);
    if (key === 'aws_region' && !ECR_REGIONS.some((r) => r.id === value)) add(key, registryMessages.awsRegion);
    if (key === 'gitlab_hierarchy_type' && !(GITLAB_HIERARCHY_TYPES as readonly string[]).includes(value)) add(key, registryMessages.hierarchyType);
  }
  return errors;
}

export const isRegistryProvider = (p: string): p is RegistryProvider => (REGISTRY_PROVIDERS as readonly string[]).includes(p);
