import { z } from 'zod';
import path from 'node:path';
import { TrustProxy } from './platform/trust-proxy.js';
import { artifactLocation } from './platform/artifacts.js';
import { BIGGER_BOX_LIMITS, DEFAULT_BOX_LIMITS, parseSize } from './integrations/executor/box-limits.js';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** A size in bytes ("2g", "512M", "1.5GiB", "268435456"), at least 16 MiB. */
const size = z.string().transform((v, ctx) => {
  const bytes = parseSize(v);
  if (!(bytes >= 16 * 1024 ** 2)) ctx.addIssue({ code: 'custom', message: `${v} is not a size of at least 16 MiB (e.g. 2g, 512m)` });
  return bytes;
});
/** A number of CPUs: "1", "0.5", "2"; 0 for none (no CPU limit), else at least 0.01 (the kernel's 1 ms a period). */
const cpus = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  if (!(n === 0 || (n >= 0.01 && n <= 1024))) ctx.addIssue({ code: 'custom', message: `${v} is not a number of CPUs (e.g. 1, 0.5, 2), or 0 for no CPU limit` });
  return n;
});

/** Every setting Gantry reads from its environment (DESIGN §9), validated once at start. */
export const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(80),
  HOST: z.string().default('0.0.0.0'),
  GANTRY_DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  PUBLIC_URL: z.string().url().optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Gantry <no-reply@gantry.local>'),
  GANTRY_SECRET_KEY: z.string().min(32, 'GANTRY_SECRET_KEY must be at least 32 characters').optional(),
  GANTRY_ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  GANTRY_WEB_DIST: z.string().optional(),
  GANTRY_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  GANTRY_RATE_LIMIT: bool.default(true),
  TRUST_PROXY: TrustProxy,
  GANTRY_ID_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).default(900),
  GANTRY_JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  BUILD_EXECUTOR: z.enum(['local', 'kubernetes']).default('local'),
  /** bwrap: user code (build steps, terraform) runs in bubblewrap; none: on the host, logged as a warning. */
  BUILD_SANDBOX: z.enum(['bwrap', 'none']).default('bwrap'),
  /** The unprivileged uid user code runs as in the sandbox (not root, not the server's uid). */
  GANTRY_SANDBOX_UID: z.coerce
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 2)
    .default(64000),
  /**
   * box: each box (build steps, git, terraform, buildah) gets a network namespace of its own, connected
   * through passt's pasta, without the host's loopback or the cloud metadata endpoints; host: the host's.
   */
  GANTRY_BOX_NETWORK: z.enum(['box', 'host']).default('box'),
  /** Host loopback ports every box may reach (comma-separated), beside the endpoints Gantry hands a run. */
  GANTRY_BOX_LOOPBACK_PORTS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const ports = v
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
        .map(Number);
      if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535))
        ctx.addIssue({ code: 'custom', message: 'GANTRY_BOX_LOOPBACK_PORTS is a comma-separated list of ports (1-65535)' });
      return ports;
    }),
  /**
   * What one build's boxes may use together (box-limits.ts): memory ("2g", "512m", bytes; swap included),
   * processes and CPUs (0.5: half of one; 0: no CPU limit), and the bigger sizes for projects whose plan has
   * `biggerRuntimeEnvironments`.
   */
  GANTRY_BUILD_MEMORY: size.default(DEFAULT_BOX_LIMITS.memoryBytes),
  GANTRY_BUILD_PROCESSES: z.coerce.number().int().min(16).default(DEFAULT_BOX_LIMITS.processes),
  GANTRY_BUILD_CPUS: cpus.default(DEFAULT_BOX_LIMITS.cpus),
  GANTRY_BUILD_MEMORY_BIGGER: size.default(BIGGER_BOX_LIMITS.memoryBytes),
  GANTRY_BUILD_PROCESSES_BIGGER: z.coerce.number().int().min(16).default(BIGGER_BOX_LIMITS.processes),
  GANTRY_BUILD_CPUS_BIGGER: cpus.default(BIGGER_BOX_LIMITS.cpus),
  /** auto: a cgroup per build where one can be made (v2 or v1); none: never (per-process rlimits only, said in every build log). */
  GANTRY_BUILD_CGROUPS: z.enum(['auto', 'none']).default('auto'),
  /** A running build is stopped FAILED after this many minutes (a fraction is allowed). */
  GANTRY_BUILD_MAX_MINUTES: z.coerce.number().positive().default(60),
  TERRAFORM_BIN: z.string().default('terraform'),
  /**
   * A container scanner a docker-push step runs (in the sandbox) on the image it built, `{archive}`
   * being an OCI archive of it: `trivy image --format json --input {archive}` or
   * `grype oci-archive:{archive} -o json`. Unset: no scan, no containerScan report.
   */
  CONTAINER_SCANNER: z.string().trim().min(1).optional(),
  /** A folder, or s3://bucket[/prefix] (credentials, region and endpoint the standard AWS way); see artifacts.ts. */
  ARTIFACT_STORE: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      try {
        artifactLocation(v, '.');
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    }),
  // Card payments through Stripe Checkout (unset: the instance admin assigns plans); the API base points the SDK at a stand-in.
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  STRIPE_API_BASE: z.string().url().optional(),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GITHUB_OAUTH_URL: z.string().url().default('https://github.com'),
  GITHUB_API_URL: z.string().url().default('https://api.github.com'),
  GITLAB_CLIENT_ID: z.string().optional(),
  GITLAB_CLIENT_SECRET: z.string().optional(),
  GITLAB_URL: z.string().url().default('https://gitlab.com'),
  BITBUCKET_CLIENT_ID: z.string().optional(),
  BITBUCKET_CLIENT_SECRET: z.string().optional(),
  BITBUCKET_OAUTH_URL: z.string().url().default('https://bitbucket.org'),
  BITBUCKET_API_URL: z.string().url().default('https://api.bitbucket.org/2.0'),
  /** Docker Hub's API (login, repositories, tags) and its registry (image labels); a stand-in in tests. */
  DOCKERHUB_API_URL: z.string().url().default('https://hub.docker.com'),
  DOCKERHUB_REGISTRY_URL: z.string().url().default('https://registry-1.docker.io'),
  /** The addresses a registry URL a user typed may lead the server to (integrations/registries/outbound.ts). */
  OUTBOUND_NETWORK: z.enum(['lan', 'public', 'any']).default('lan'),
});

export type Config = z.infer<typeof ConfigSchema> & { dataDir: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.GANTRY_DATA_DIR) };
}
