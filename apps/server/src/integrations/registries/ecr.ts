import {
  ECRClient,
  DescribeImageScanFindingsCommand,
  DescribeImagesCommand,
  DescribeRepositoriesCommand,
  GetAuthorizationTokenCommand,
  type ImageDetail,
  type Repository,
} from '@aws-sdk/client-ecr';
import { SEVERITIES, type ContainerScan } from '@gantry/contracts';
import { createV2Client } from './v2-client.js';
import { RegistryFailure, errorMessage, type PushCredentials, type RegistryAdapter, type RegistryTag } from './types.js';

/** An SDK error as a RegistryFailure with the service's own words (and its HTTP status for 503/429). */
function failure(what: string, err: unknown): RegistryFailure {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  // AWS answers throttling with HTTP 400 and the error name; it is a "retry later" all the same
  const throttled = ['ThrottlingException', 'TooManyRequestsException', 'RequestLimitExceeded', 'ServiceUnavailableException'].includes(e.name ?? '');
  const status = throttled ? 429 : e.$metadata?.httpStatusCode;
  return new RegistryFailure(`${what}: ${e.name && e.name !== 'Error' ? `${e.name}: ` : ''}${errorMessage(err)}`, status);
}

/**
 * Amazon ECR through @aws-sdk/client-ecr with the registry's access key (the SDK's endpoint resolution stays as it
 * is, so AWS_ENDPOINT_URL_ECR reaches a stand-in). Pushes use a fresh authorization token (user AWS).
 */
export function ecrAdapter(c: {
  accountId: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Between DescribeImageScanFindings calls while a scan is still running (default 5 s), at most `scanPolls` times. */
  scanPollMs?: number;
  scanPolls?: number;
  fetch?: typeof fetch;
}): RegistryAdapter {
  const client = new ECRClient({ region: c.region, credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey } });
  const registryId = c.accountId;

  async function authorization(): Promise<PushCredentials> {
    let out;
    try {
      out = await client.send(new GetAuthorizationTokenCommand({}));
    } catch (err) {
      throw failure('GetAuthorizationToken', err);
    }
    const data = out.authorizationData?.find((d) => d.proxyEndpoint?.includes(registryId)) ?? out.authorizationData?.[0];
    if (!data?.authorizationToken) throw new RegistryFailure('ECR answered no authorization token');
    const [username, password] = Buffer.from(data.authorizationToken, 'base64').toString('utf8').split(/:(.*)/s);
    const endpoint = new URL(data.proxyEndpoint ?? `https://${registryId}.dkr.ecr.${c.region}.amazonaws.com`);
    return { host: endpoint.host, repositoryPrefix: '', username: username ?? 'AWS', password: password ?? '', tls: endpoint.protocol !== 'http:' };
  }

  return {
    async verify() {
      await authorization();
    },
    async listRepositories() {
      const names: string[] = [];
      let nextToken: string | undefined;
      do {
        let out;
        try {
          out = await client.send(new DescribeRepositoriesCommand({ registryId, nextToken, maxResults: 1000 }));
        } catch (err) {
          throw failure('DescribeRepositories', err);
        }
        names.push(...(out.repositories ?? []).map((r: Repository) => r.repositoryName!).filter(Boolean));
        nextToken = out.nextToken;
      } while (nextToken);
      return names.sort();
    },
    async listTags(repository) {
      const tags: RegistryTag[] = [];
      let nextToken: string | undefined;
      do {
        let out;
        try {
          out = await client.send(
            new DescribeImagesCommand({ registryId, repositoryName: repository, filter: { tagStatus: 'TAGGED' }, nextToken, maxResults: 1000 }),
          );
        } catch (err) {
          throw failure(`DescribeImages of ${repository}`, err);
        }
        for (const image of out.imageDetails ?? ([] as ImageDetail[])) {
          for (const name of image.imageTags ?? [])
            tags.push({ name, date: image.imagePushedAt ? new Date(image.imagePushedAt).toISOString() : null, digest: image.imageDigest ?? null });
        }
        nextToken = out.nextToken;
      } while (nextToken);
      return tags;
    },
    async labels(repository, tag) {
      const auth = await authorization();
      const v2 = createV2Client({ baseUrl: `${auth.tls ? 'https' : 'http'}://${auth.host}`, username: auth.username, password: auth.password, fetch: c.fetch });
      return (await v2.describe(repository, tag)).labels ?? {};
    },
    pushTarget: authorization,
    async scan(repository, digest): Promise<ContainerScan | null> {
      const polls = c.scanPolls ?? 60;
      for (let i = 0; ; i++) {
        let out;
        try {
          out = await client.send(
            new DescribeImageScanFindingsCommand({ registryId, repositoryName: repository, imageId: { imageDigest: digest }, maxResults: 1 }),
          );
        } catch (err) {
          if ((err as { name?: string }).name === 'ScanNotFoundException') return null;
          throw failure(`DescribeImageScanFindings of ${repository}@${digest}`, err);
        }
        const status = out.imageScanStatus?.status;
        const tag = '';
        if (status === 'COMPLETE') {
          const counts = out.imageScanFindings?.findingSeverityCounts ?? {};
          return {
            imageName: repository,
            imageTag: tag,
            status: 'COMPLETE',
            statusDescription: out.imageScanStatus?.description ?? 'The scan was completed successfully.',
            severityCounts: Object.fromEntries(Object.entries(counts).filter(([k]) => (SEVERITIES as readonly string[]).includes(k))),
            scanner: 'Amazon ECR',
          };
        }
        if ((status !== 'IN_PROGRESS' && status !== 'PENDING') || i >= polls) {
          return {
            imageName: repository,
            imageTag: tag,
            status: 'FAILED',
            statusDescription: out.imageScanStatus?.description ?? `Scan ${status ?? 'status unknown'}`,
            severityCounts: {},
            scanner: 'Amazon ECR',
          };
        }
        await new Promise((r) => setTimeout(r, c.scanPollMs ?? 5_000));
      }
    },
  };
}
