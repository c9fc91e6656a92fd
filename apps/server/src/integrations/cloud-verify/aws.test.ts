import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it, expect, afterEach, afterAll } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { AssumeRoleCommand, STSClient, STSServiceException } from '@aws-sdk/client-sts';
import { createAwsVerifier } from './aws.js';
import { isAwsHostIdentityMissing } from './index.js';

const ROLE = 'arn:aws:iam::111122223333:role/GantryDeployer';

/** The shape STS answers AssumeRole with (as the SDK hands it back), recorded from a real call. */
const assumeRoleOutput = {
  $metadata: { httpStatusCode: 200, requestId: 'c6104cbe-af31-11e0-8154-cbc7ccf896c7', attempts: 1, totalRetryDelay: 0 },
  Credentials: {
    AccessKeyId: 'ASIAIOSFODNN7EXAMPLE',
    SecretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
    SessionToken:
      'AQoDYXdzEPT//////////wEXAMPLEtc764bNrC9SAPBSM22wDOk4x4HIZ8j4FZTwdQWLWsKWHGBuFqwAeMicRXmxfpSPfIeoIYRqTflfKD8YUuwthAx7mSEI/qkPpKPi/kMcGdQrmGdeehM4IC1NtBmUpp2wUE8phUZampKsburEDy0KPkyQDYwT7WZ0wq5VSXDvp75YU9HFvlRd8Tx6q6fE8YQcHNVXAkiY9q6d+xo0rKwT38xVqr7ZD0u0iPPkUL64lIZbqBAz+scqKmlzm8FDrypNC9Yjc8fPOLn9FX9KSYvKTr4rvx3iSIlTJabIQwj2ICCR/oLxBA==',
    Expiration: new Date('2026-05-01T12:15:00Z'),
  },
  AssumedRoleUser: { AssumedRoleId: 'AROA3XFRBF535PLBIFPI4:gantry-verify', Arn: 'arn:aws:sts::111122223333:assumed-role/GantryDeployer/gantry-verify' },
  PackedPolicySize: 0,
};

/** What the SDK throws when the role's trust policy (or its external id condition) refuses Gantry's identity. */
const accessDenied = () =>
  new STSServiceException({
    name: 'AccessDenied',
    $fault: 'client',
    message: `User: arn:aws:iam::999999999999:user/gantry is not authorized to perform: sts:AssumeRole on resource: ${ROLE}`,
    $metadata: { httpStatusCode: 403, requestId: '4b5f3d9c-0a6c-4a57-9f3e-1b2c3d4e5f60', attempts: 1, totalRetryDelay: 0 },
  });

describe('AWS verifier (STS AssumeRole through the SDK)', () => {
  const sts = mockClient(STSClient);
  afterEach(() => sts.reset());
  afterAll(() => sts.restore());

  it('assumes the role with the external id and answers the session credentials', async () => {
    sts.on(AssumeRoleCommand).resolves(assumeRoleOutput);
    const verifier = createAwsVerifier({ client: new STSClient({ region: 'eu-central-1' }) });
    const creds = await verifier.assumeRole({ roleArn: ROLE, externalId: 'ext-42', sessionName: 'gantry-verify' });
    expect(creds).toEqual({
      accessKeyId: 'ASIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY',
      sessionToken: assumeRoleOutput.Credentials.SessionToken,
      expiration: new Date('2026-05-01T12:15:00Z'),
    });
    expect(sts.commandCalls(AssumeRoleCommand)).toHaveLength(1);
    expect(sts.commandCalls(AssumeRoleCommand)[0]!.args[0].input).toEqual({
      RoleArn: ROLE,
      ExternalId: 'ext-42',
      RoleSessionName: 'gantry-verify',
      DurationSeconds: 900,
    });
  });

  it('passes a longer session on for deployments', async () => {
    sts.on(AssumeRoleCommand).resolves(assumeRoleOutput);
    await createAwsVerifier({ client: new STSClient({ region: 'us-east-1' }) }).assumeRole({
      roleArn: ROLE,
      externalId: 'x',
      sessionName: 'gantry-deploy',
      durationSeconds: 3600,
    });
    expect(sts.commandCalls(AssumeRoleCommand)[0]!.args[0].input.DurationSeconds).toBe(3600);
  });

  it('rejects with the SDK error when STS refuses (AccessDenied)', async () => {
    sts.on(AssumeRoleCommand, { RoleArn: ROLE, ExternalId: 'wrong' }).rejects(accessDenied());
    const verifier = createAwsVerifier({ client: new STSClient({ region: 'us-east-1' }) });
    await expect(verifier.assumeRole({ roleArn: ROLE, externalId: 'wrong', sessionName: 'gantry-verify' })).rejects.toMatchObject({
      name: 'AccessDenied',
      $metadata: { httpStatusCode: 403 },
    });
  });

  it('rejects an answer without credentials', async () => {
    sts.on(AssumeRoleCommand).resolves({ $metadata: {} });
    await expect(
      createAwsVerifier({ client: new STSClient({ region: 'us-east-1' }) }).assumeRole({ roleArn: ROLE, externalId: 'x', sessionName: 's1' }),
    ).rejects.toThrow(/without credentials/);
  });
});

/** STS's wire answer to AssumeRole (query protocol, XML). */
const assumeRoleXml = `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser><AssumedRoleId>AROA3XFRBF535PLBIFPI4:gantry-verify</AssumedRoleId><Arn>arn:aws:sts::111122223333:assumed-role/GantryDeployer/gantry-verify</Arn></AssumedRoleUser>
    <Credentials>
      <AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId>
      <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey>
      <SessionToken>FwoGZXIvYXdzEXAMPLE</SessionToken>
      <Expiration>2026-05-01T12:15:00Z</Expiration>
    </Credentials>
    <PackedPolicySize>0</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
</AssumeRoleResponse>`;
const accessDeniedXml = `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User: arn:aws:iam::999999999999:user/gantry is not authorized to perform: sts:AssumeRole on resource: ${ROLE}</Message></Error>
  <RequestId>4b5f3d9c-0a6c-4a57-9f3e-1b2c3d4e5f60</RequestId>
</ErrorResponse>`;

describe('AWS verifier on the SDK default chain', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
  });

  it("signs with Gantry's own credentials from the environment and honours AWS_ENDPOINT_URL_STS and AWS_REGION", async () => {
    const seen: { auth?: string; body: string; url?: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ auth: req.headers.authorization, body, url: req.url });
        const denied = new URLSearchParams(body).get('ExternalId') === 'wrong';
        res.writeHead(denied ? 403 : 200, { 'content-type': 'text/xml', 'x-amzn-requestid': 'c6104cbe' });
        res.end(denied ? accessDeniedXml : assumeRoleXml);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: 'AKIAGANTRYOWNIDENTITY',
        AWS_SECRET_ACCESS_KEY: 'gantry-own-secret',
        AWS_REGION: 'eu-central-1',
        AWS_ENDPOINT_URL_STS: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      delete process.env.AWS_PROFILE;
      delete process.env.AWS_SESSION_TOKEN;
      const verifier = createAwsVerifier();
      const creds = await verifier.assumeRole({ roleArn: ROLE, externalId: 'ext-42', sessionName: 'gantry-verify' });
      expect(creds.accessKeyId).toBe('ASIAIOSFODNN7EXAMPLE');
      expect(creds.sessionToken).toBe('FwoGZXIvYXdzEXAMPLE');
      expect(seen[0]!.auth).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAGANTRYOWNIDENTITY\/\d{8}\/eu-central-1\/sts\/aws4_request/);
      const form = new URLSearchParams(seen[0]!.body);
      expect(Object.fromEntries(form)).toMatchObject({
        Action: 'AssumeRole',
        RoleArn: ROLE,
        ExternalId: 'ext-42',
        RoleSessionName: 'gantry-verify',
        DurationSeconds: '900',
      });

      const refused = await verifier.assumeRole({ roleArn: ROLE, externalId: 'wrong', sessionName: 'gantry-verify' }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ name: 'AccessDenied' });
      expect(isAwsHostIdentityMissing(refused)).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it('fails before asking STS when the host has no AWS identity at all, and that failure is told apart', async () => {
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(500).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      for (const k of Object.keys(process.env)) if (k.startsWith('AWS_')) delete process.env[k];
      Object.assign(process.env, {
        AWS_CONFIG_FILE: '/nonexistent/aws-config',
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/aws-credentials',
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_ENDPOINT_URL_STS: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      });
      const failure = await createAwsVerifier()
        .assumeRole({ roleArn: ROLE, externalId: 'ext-42', sessionName: 'gantry-verify' })
        .catch((e: unknown) => e);
      expect(failure).toMatchObject({ name: 'CredentialsProviderError' });
      expect(isAwsHostIdentityMissing(failure)).toBe(true);
      expect(asked).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
