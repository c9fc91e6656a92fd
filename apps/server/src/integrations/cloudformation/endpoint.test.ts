import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientsFor, describeStack, sessionFromEnv, uploadTemplates } from './index.js';

/**
 * The SDK's own endpoint chain (DESIGN §8): with AWS_ENDPOINT_URL_CLOUDFORMATION and
 * AWS_ENDPOINT_URL_S3 set, real SDK clients talk to that address — here a stand-in answering
 * the CloudFormation query protocol (XML) and S3's REST API, recording what it is sent.
 */
const seen: { method: string; url: string; body: string; auth: string; token: string }[] = [];
const STACK = 'gantry-shop-6a1f7d3e';
const stackXml = `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">
  <DescribeStacksResult><Stacks><member>
    <StackId>arn:aws:cloudformation:eu-west-1:123456789012:stack/${STACK}/1f2e3d4c-a8b9-11ef-9b7a-0a1b2c3d4e5f</StackId>
    <StackName>${STACK}</StackName><CreationTime>2026-11-22T10:00:00.000Z</CreationTime><StackStatus>UPDATE_ROLLBACK_FAILED</StackStatus>
    <Outputs><member><OutputKey>vpcVpcId</OutputKey><OutputValue>vpc-0a1b2c3d4e5f67890</OutputValue><Description>vpc.VpcId</Description></member></Outputs>
  </member></Stacks></DescribeStacksResult>
  <ResponseMetadata><RequestId>b9b4b068-3a41-11e5-94eb-0a1b2c3d4e5f</RequestId></ResponseMetadata>
</DescribeStacksResponse>`;
const missingXml = (name: string) => `<ErrorResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/">
  <Error><Type>Sender</Type><Code>ValidationError</Code><Message>Stack with id ${name} does not exist</Message></Error>
  <RequestId>c1d2e3f4-3a41-11e5-94eb-0a1b2c3d4e5f</RequestId>
</ErrorResponse>`;

const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({
      method: req.method!,
      url: req.url!,
      body,
      auth: String(req.headers.authorization ?? ''),
      token: String(req.headers['x-amz-security-token'] ?? ''),
    });
    const form = new URLSearchParams(body);
    if (req.url === '/cfn/' && form.get('Action') === 'DescribeStacks') {
      const known = form.get('StackName') === STACK;
      res.writeHead(known ? 200 : 400, { 'content-type': 'text/xml' }).end(known ? stackXml : missingXml(form.get('StackName') ?? ''));
    } else if (req.url!.startsWith('/s3/') && req.method === 'HEAD') res.writeHead(404).end();
    else if (req.url!.startsWith('/s3/') && req.method === 'PUT') res.writeHead(200, { etag: '"9b2cf535f27731c974343645a3985328"' }).end();
    else res.writeHead(500).end();
  });
});
let base = '';
const saved = { cfn: process.env.AWS_ENDPOINT_URL_CLOUDFORMATION, s3: process.env.AWS_ENDPOINT_URL_S3 };
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_ENDPOINT_URL_CLOUDFORMATION = `${base}/cfn`;
  process.env.AWS_ENDPOINT_URL_S3 = `${base}/s3`;
});
afterAll(async () => {
  for (const [k, v] of [
    ['AWS_ENDPOINT_URL_CLOUDFORMATION', saved.cfn],
    ['AWS_ENDPOINT_URL_S3', saved.s3],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await new Promise((r) => server.close(r));
});

const credentials = { AWS_ACCESS_KEY_ID: 'ASIAROLEEXAMPLE', AWS_SECRET_ACCESS_KEY: 'role-secret', AWS_SESSION_TOKEN: 'role-token' };

describe('endpoints from the SDK chain', () => {
  it('CloudFormation calls go to AWS_ENDPOINT_URL_CLOUDFORMATION, signed with the given credentials', async () => {
    const c = clientsFor(sessionFromEnv('eu-west-1', credentials));
    const stack = await describeStack(c, STACK);
    expect(stack?.StackStatus).toBe('UPDATE_ROLLBACK_FAILED');
    expect(stack?.Outputs).toEqual([{ OutputKey: 'vpcVpcId', OutputValue: 'vpc-0a1b2c3d4e5f67890', Description: 'vpc.VpcId' }]);
    expect(await describeStack(c, 'gantry-gone-00000000')).toBeNull();
    const call = seen.find((s) => s.url === '/cfn/')!;
    expect(new URLSearchParams(call.body).get('Action')).toBe('DescribeStacks');
    expect(call.auth).toMatch(/Credential=ASIAROLEEXAMPLE\/\d{8}\/eu-west-1\/cloudformation\/aws4_request/);
    expect(call.token).toBe('role-token');
  });

  it('templates go to AWS_ENDPOINT_URL_S3 (path style), and their URLs point there', async () => {
    const c = clientsFor(sessionFromEnv('eu-west-1', credentials));
    const urls = await uploadTemplates(c, {
      bucket: 'gantry-templates-123456789012-eu-west-1',
      region: 'eu-west-1',
      prefix: 'stage/dep',
      resources: [{ name: 'vpc', templateBody: 'Resources: {}' }],
    });
    expect(urls).toEqual({ vpc: `${base}/s3/gantry-templates-123456789012-eu-west-1/stage/dep/vpc.template` });
    const s3 = seen.filter((s) => s.url.startsWith('/s3/'));
    expect(s3.map((s) => [s.method, s.url.split('?')[0]])).toEqual([
      ['HEAD', '/s3/gantry-templates-123456789012-eu-west-1/'],
      ['PUT', '/s3/gantry-templates-123456789012-eu-west-1/'],
      ['PUT', '/s3/gantry-templates-123456789012-eu-west-1/'],
      ['PUT', '/s3/gantry-templates-123456789012-eu-west-1/stage/dep/vpc.template'],
    ]);
    expect(s3[1]!.body).toContain('<LocationConstraint>eu-west-1</LocationConstraint>');
    expect(s3[2]!.url).toContain('lifecycle');
    expect(s3[2]!.body).toContain('<Days>30</Days>');
    expect(s3[3]!.body).toContain('Resources: {}');
    expect(s3[3]!.auth).toMatch(/Credential=ASIAROLEEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request/);
  });
});
