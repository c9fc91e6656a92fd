/** A custom S3 endpoint (LocalStack, MinIO, a stand-in) from the SDK's own variables (DESIGN §8); such stores rarely serve virtual-hosted buckets. */
export const s3EndpointOverride = () => process.env.AWS_ENDPOINT_URL_S3 || process.env.AWS_ENDPOINT_URL || undefined;
