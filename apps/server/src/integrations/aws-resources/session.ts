/** Where and as whom AWS calls go: a region and the connected account's assumed-role credentials. */
export interface AwsSession {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

/** The assumed-role session of a cloud account as the SDK takes it, from the variables cloud accounts hand out. */
export const sessionFromEnv = (region: string, env: Record<string, string | undefined>): AwsSession => ({
  region,
  credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID ?? '', secretAccessKey: env.AWS_SECRET_ACCESS_KEY ?? '', sessionToken: env.AWS_SESSION_TOKEN },
});
