import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { S3Client } from '@aws-sdk/client-s3';
import { s3EndpointOverride } from '../aws/s3-endpoint.js';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}
export interface AwsSession {
  region: string;
  credentials: AwsCredentials;
}
export interface CfnClients {
  cfn: CloudFormationClient;
  s3: S3Client;
}

/** A session from the environment-variable form of credentials (what the cloud-accounts service's `credentialsFor` answers). */
export const sessionFromEnv = (region: string, env: Record<string, string>): AwsSession => ({
  region,
  credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '', sessionToken: env.AWS_SESSION_TOKEN },
});

export { s3EndpointOverride };

/**
 * Clients with the environment's credentials and region; endpoints stay with the SDK's chain
 * (`AWS_ENDPOINT_URL_CLOUDFORMATION`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`). Stand-ins rarely
 * serve virtual-hosted buckets, hence path style when an endpoint is configured.
 */
export const clientsFor = (s: AwsSession): CfnClients => ({
  cfn: new CloudFormationClient({ region: s.region, credentials: s.credentials }),
  s3: new S3Client({ region: s.region, credentials: s.credentials, forcePathStyle: Boolean(s3EndpointOverride()) }),
});
