import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  ECRClient,
  DescribeImageScanFindingsCommand,
  DescribeImagesCommand,
  DescribeRepositoriesCommand,
  GetAuthorizationTokenCommand,
  ScanNotFoundException,
} from '@aws-sdk/client-ecr';
import { startRegistry, type LocalRegistry } from '@gantry/test-support';
import { GANTRY_IMAGE_LABELS } from '@gantry/contracts';
import { ecrAdapter } from './ecr.js';

const ecr = mockClient(ECRClient);
let reg: LocalRegistry;
const creds = {
  accountId: '123456789012',
  region: 'eu-west-1',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
  scanPollMs: 0,
  scanPolls: 2,
};
const adapter = () => ecrAdapter(creds);

beforeAll(async () => {
  // the registry side (image labels) is a real Distribution with htpasswd, user AWS as ECR's tokens have
  reg = await startRegistry({ auth: 'htpasswd', users: { AWS: 'ecr-token-password' } });
  await reg.pushImage('shop/api', 'v1', { labels: { [GANTRY_IMAGE_LABELS.revision]: 'c0ffee1234' } });
});
afterAll(async () => {
  await reg?.stop();
  ecr.restore();
});
beforeEach(() => {
  ecr.reset();
  ecr.on(GetAuthorizationTokenCommand).resolves({
    authorizationData: [
      { authorizationToken: Buffer.from('AWS:ecr-token-password').toString('base64'), expiresAt: new Date('2026-12-01T00:00:00Z'), proxyEndpoint: reg.url },
    ],
  });
});

describe('ECR adapter', () => {
  it("verifies with GetAuthorizationToken and passes the SDK's refusal on", async () => {
    await expect(adapter().verify()).resolves.toBeUndefined();
    ecr.on(GetAuthorizationTokenCommand).rejects(
      Object.assign(new Error('The security token included in the request is invalid.'), {
        name: 'UnrecognizedClientException',
        $metadata: { httpStatusCode: 400 },
      }),
    );
    await expect(adapter().verify()).rejects.toThrow(
      'GetAuthorizationToken: UnrecognizedClientException: The security token included in the request is invalid.',
    );
  });

  it('answers the push target from the token (user AWS, host of the proxy endpoint)', async () => {
    expect(await adapter().pushTarget()).toEqual({ host: reg.host, repositoryPrefix: '', username: 'AWS', password: 'ecr-token-password', tls: false });
    ecr.on(GetAuthorizationTokenCommand).resolves({
      authorizationData: [
        { authorizationToken: Buffer.from('AWS:t').toString('base64'), proxyEndpoint: 'https://123456789012.dkr.ecr.eu-west-1.amazonaws.com' },
      ],
    });
    expect(await adapter().pushTarget()).toMatchObject({ host: '123456789012.dkr.ecr.eu-west-1.amazonaws.com', tls: true });
  });

  it('lists repositories over every page of DescribeRepositories', async () => {
    ecr
      .on(DescribeRepositoriesCommand, { registryId: '123456789012', nextToken: undefined })
      .resolves({
        repositories: [
          {
            repositoryArn: 'arn:aws:ecr:eu-west-1:123456789012:repository/shop/web',
            registryId: '123456789012',
            repositoryName: 'shop/web',
            repositoryUri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/shop/web',
            createdAt: new Date('2026-01-01T00:00:00Z'),
          },
        ],
        nextToken: 'page2',
      })
      .on(DescribeRepositoriesCommand, { nextToken: 'page2' })
      .resolves({
        repositories: [
          {
            repositoryArn: 'arn:aws:ecr:eu-west-1:123456789012:repository/shop/api',
            registryId: '123456789012',
            repositoryName: 'shop/api',
            repositoryUri: '123456789012.dkr.ecr.eu-west-1.amazonaws.com/shop/api',
            createdAt: new Date('2026-01-02T00:00:00Z'),
          },
        ],
      });
    expect(await adapter().listRepositories()).toEqual(['shop/api', 'shop/web']);
  });

  it('lists tags from DescribeImages (one entry per tag) and labels through the registry', async () => {
    ecr.on(DescribeImagesCommand, { repositoryName: 'shop/api', filter: { tagStatus: 'TAGGED' } }).resolves({
      imageDetails: [
        {
          registryId: '123456789012',
          repositoryName: 'shop/api',
          imageDigest: 'sha256:aaa',
          imageTags: ['v1', 'latest'],
          imageSizeInBytes: 1024,
          imagePushedAt: new Date('2026-02-01T10:00:00Z'),
          imageManifestMediaType: 'application/vnd.docker.distribution.manifest.v2+json',
        },
        {
          registryId: '123456789012',
          repositoryName: 'shop/api',
          imageDigest: 'sha256:bbb',
          imageTags: ['v0'],
          imageSizeInBytes: 1024,
          imagePushedAt: new Date('2026-01-01T10:00:00Z'),
        },
      ],
    });
    const a = adapter();
    expect(await a.listTags('shop/api')).toEqual([
      { name: 'v1', date: '2026-02-01T10:00:00.000Z', digest: 'sha256:aaa' },
      { name: 'latest', date: '2026-02-01T10:00:00.000Z', digest: 'sha256:aaa' },
      { name: 'v0', date: '2026-01-01T10:00:00.000Z', digest: 'sha256:bbb' },
    ]);
    expect(await a.labels('shop/api', 'v1')).toEqual({ [GANTRY_IMAGE_LABELS.revision]: 'c0ffee1234' });
  });

  it('reads the scan: counts when complete, FAILED with the reason, null without a scan, polls while in progress', async () => {
    ecr
      .on(DescribeImageScanFindingsCommand)
      .resolvesOnce({ imageScanStatus: { status: 'IN_PROGRESS' } })
      .resolvesOnce({
        registryId: '123456789012',
        repositoryName: 'shop/api',
        imageId: { imageDigest: 'sha256:aaa' },
        imageScanStatus: { status: 'COMPLETE', description: 'The scan was completed successfully.' },
        imageScanFindings: {
          imageScanCompletedAt: new Date(),
          vulnerabilitySourceUpdatedAt: new Date(),
          findingSeverityCounts: { HIGH: 2, LOW: 5 },
          findings: [],
        },
      });
    expect(await adapter().scan('shop/api', 'sha256:aaa')).toEqual({
      imageName: 'shop/api',
      imageTag: '',
      status: 'COMPLETE',
      statusDescription: 'The scan was completed successfully.',
      severityCounts: { HIGH: 2, LOW: 5 },
      scanner: 'Amazon ECR',
    });
    ecr.on(DescribeImageScanFindingsCommand).resolves({
      imageScanStatus: { status: 'UNSUPPORTED_IMAGE', description: 'UnsupportedImageError: The operating system and/or package manager are not supported.' },
    });
    expect(await adapter().scan('shop/api', 'sha256:aaa')).toMatchObject({
      status: 'FAILED',
      statusDescription: expect.stringContaining('UnsupportedImageError'),
      severityCounts: {},
    });
    ecr.on(DescribeImageScanFindingsCommand).rejects(new ScanNotFoundException({ message: 'Image scan does not exist for the image', $metadata: {} }));
    expect(await adapter().scan('shop/api', 'sha256:aaa')).toBeNull();
  });

  it('marks throttling as unavailable', async () => {
    ecr.on(DescribeRepositoriesCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } }));
    await expect(adapter().listRepositories()).rejects.toMatchObject({ unavailable: true });
  });
});
