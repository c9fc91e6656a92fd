import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startAwsStandin, findStack, type AwsStandin } from '@gantry/test-support';
import {
  acceptingCloudVerifier,
  awsProject,
  bearer,
  componentId,
  createStage,
  createTestApp,
  registerUser,
  TEST_AWS_ACCOUNT as ACCOUNT,
  until,
  type TestApp,
} from '../../../test/helpers.js';
import { DEFAULT_VENDOR_ROOT } from '../components/components.module.js';

/**
 * CloudFormation deployments through the API with the real SDK talking to the AWS stand-in's
 * CloudFormation and S3 (DESIGN §7; AWS_ENDPOINT_URL_CLOUDFORMATION / _S3, as a user would point
 * Gantry at LocalStack): the vendor AWS VPC component as a nested stack of the environment's stack,
 * its update, an update the service refuses (rolled back, with its cause in the logs), undeploy,
 * a first create that rolls back (ROLLBACK_COMPLETE: Quick Deploy refused until undeployed) and a
 * stack someone left in REVIEW_IN_PROGRESS.
 */
const REGION = 'eu-west-1';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'ASIACFNINTEGRATION01', AWS_SECRET_ACCESS_KEY: 'cfn-integration-secret', AWS_SESSION_TOKEN: 'cfn-integration-token' };
const pgServer = process.env.TEST_DATABASE_URL;
const VPC_TEMPLATE = fs.readFileSync(path.join(DEFAULT_VENDOR_ROOT, 'aws-vpc', 'template.yaml'), 'utf8');

let aws: AwsStandin;
let t: TestApp;
let owner: { idToken: string };
let projectId: string;
let vpcComponent: string;
const savedEnv = { ...process.env };

const engine = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/ms-engine/projects/${projectId}${url}`,
    headers: bearer(owner.idToken),
    ...(payload ? { payload } : method === 'POST' ? { payload: {} } : {}),
  });

async function environment(name: string) {
  const stageId = await createStage(t, owner.idToken, projectId, {
    name,
    infrastructureAsCodeTool: 'cloudformation',
    awsAccountId: ACCOUNT,
    awsRegion: REGION,
  });
  const added = await engine('POST', `/stages/${stageId}/resources`, {
    name: 'net',
    componentId: vpcComponent,
    configurations: [{ key: 'CidrBlock', value: '10.20.0.0/16' }],
  });
  expect(added.statusCode, added.body).toBe(201);
  return stageId;
}
const setCidr = async (stageId: string, cidr: string) =>
  expect(
    (await engine('PUT', `/stages/${stageId}/resources/net`, { name: 'net', componentId: vpcComponent, configurations: [{ key: 'CidrBlock', value: cidr }] }))
      .statusCode,
  ).toBe(200);
/** Starts a deploy or undeploy and answers the deployment once it ended. */
async function run(stageId: string, what: 'deploy' | 'undeploy') {
  const started = await engine('POST', `/stages/${stageId}/${what}`);
  expect(started.statusCode, started.body).toBe(202);
  const id = started.json().deploymentId as string;
  return until(
    async () => (await engine('GET', `/stages/${stageId}/deployments/${id}`)).json(),
    (d) => !d.status.endsWith('IN_PROGRESS') && d.status !== 'DEPLOY_QUEUED',
    `the ${what} of ${stageId}`,
  );
}
const stageOf = async (stageId: string) => (await engine('GET', `/stages/${stageId}`)).json();
const logText = async (stageId: string, id: string) =>
  (await engine('GET', `/stages/${stageId}/deployments/${id}/logs`))
    .json()
    .chunks.map((c: { text: string }) => c.text)
    .join('\n');
const stackOf = (stageId: string) => aws.world.stacks.find((s) => s.name.endsWith(stageId.slice(0, 8)) && !s.parentId && s.deleted === null);

beforeAll(async () => {
  aws = await startAwsStandin({ cfnStepMs: 10 });
  Object.assign(process.env, { AWS_ENDPOINT_URL_CLOUDFORMATION: aws.url, AWS_ENDPOINT_URL_S3: aws.url });
  t = await createTestApp(pgServer ? { DATABASE_URL: pgServer } : {}, {
    overrides: { cloudAccounts: { verifier: acceptingCloudVerifier }, deployments: { credentialsFor: async () => CREDENTIALS } },
  });
  owner = await registerUser(t, 'cfn-owner@example.com');
  // the stand-in's account, on a plan with Quick Deploy
  projectId = await awsProject(t, owner.idToken, 'Network', { plan: 'PRO' });
  vpcComponent = await componentId(t, owner.idToken, projectId, 'AWS VPC');
}, 120_000);

afterAll(async () => {
  await t?.close();
  await aws?.close();
  process.env = savedEnv;
});

describe('CloudFormation deployments against the AWS stand-in', { timeout: 120_000 }, () => {
  it('deploys the environment as a stack of nested stacks, updates it, rolls back a refused update and undeploys it', async () => {
    const stageId = await environment('shop');
    const created = await run(stageId, 'deploy');
    expect([created.status, created.error]).toEqual(['CREATE_COMPLETE', null]);
    expect(await stageOf(stageId)).toMatchObject({ status: 'CREATE_COMPLETE', currentDeploymentId: created.id });

    // the nested template went to the account's bucket, and the stack runs it with the resource's input
    const stack = stackOf(stageId)!;
    expect(stack).toMatchObject({ status: 'CREATE_COMPLETE', tags: { 'gantry:environment': stageId } });
    const bucket = aws.world.buckets.find((b) => b.name === `gantry-templates-${ACCOUNT}-${REGION}`)!;
    expect([...bucket.objects.values()].map((o) => o.body)).toEqual([VPC_TEMPLATE]);
    const child = aws.world.stacks.find((s) => s.parentId === stack.id)!;
    expect(child.parameters).toEqual({ CidrBlock: '10.20.0.0/16' });

    const resources = (await engine('GET', `/stages/${stageId}/resources`)).json().resources;
    expect(resources.map((r: { name: string; status: string; isDeployed: boolean }) => [r.name, r.status, r.isDeployed])).toEqual([
      ['net', 'CREATE_COMPLETE', true],
    ]);
    const outputs = (await engine('GET', `/stages/${stageId}/resources/net/outputs`)).json();
    expect(JSON.stringify(outputs)).toContain(child.outputs.find((o) => o.key === 'VpcId')!.value);

    // the events table: the stack's events, newest first
    const events = (await engine('GET', `/stages/${stageId}/events`)).json().events;
    expect(events[0]).toMatchObject({ logicalResourceId: stack.name, resourceType: 'AWS::CloudFormation::Stack', resourceStatus: 'CREATE_COMPLETE' });
    expect(events.at(-1)).toMatchObject({ logicalResourceId: stack.name, resourceStatus: 'CREATE_IN_PROGRESS', statusReason: 'User Initiated' });
    expect(events.map((e: { logicalResourceId: string }) => e.logicalResourceId)).toContain('net');
    // and the nested stack's, named by their resource
    expect(events).toContainEqual(expect.objectContaining({ logicalResourceId: 'net/Vpc', resourceType: 'AWS::EC2::VPC', resourceStatus: 'CREATE_COMPLETE' }));
    expect(await logText(stageId, created.id)).toContain('net AWS::CloudFormation::Stack CREATE_COMPLETE');

    await setCidr(stageId, '10.30.0.0/16');
    const updated = await run(stageId, 'deploy');
    expect([updated.status, updated.error]).toEqual(['UPDATE_COMPLETE', null]);
    expect(child.parameters).toEqual({ CidrBlock: '10.30.0.0/16' });

    // EC2 refuses the block: the nested stack and the environment's roll back, the cause in the deployment's logs
    await setCidr(stageId, '10.30.0.0/33');
    const refused = await run(stageId, 'deploy');
    expect(refused.status).toBe('UPDATE_ROLLBACK_COMPLETE');
    expect(refused.error).toBeTruthy();
    expect(refused.logs.net.errorMessages).toContainEqual(
      expect.objectContaining({
        resourceType: 'AWS::EC2::VPC',
        statusReason: expect.stringContaining('Value (10.30.0.0/33) for parameter cidrBlock is invalid'),
      }),
    );
    expect(await stageOf(stageId)).toMatchObject({ status: 'UPDATE_ROLLBACK_COMPLETE', currentDeploymentId: updated.id });
    expect(child.parameters).toEqual({ CidrBlock: '10.30.0.0/16' });
    expect((await engine('GET', `/stages/${stageId}/events`)).json().events).toContainEqual(
      expect.objectContaining({ logicalResourceId: 'net/Vpc', resourceStatus: 'UPDATE_FAILED', statusReason: expect.stringContaining('(10.30.0.0/33)') }),
    );
    expect(await logText(stageId, refused.id)).toMatch(/net\/Vpc AWS::EC2::VPC UPDATE_FAILED — Value \(10.30.0.0\/33\)/);

    // the next deploy tells its own events only: no failure of the one before
    await setCidr(stageId, '10.40.0.0/16');
    const fixed = await run(stageId, 'deploy');
    expect([fixed.status, fixed.error, fixed.logs]).toEqual(['UPDATE_COMPLETE', null, {}]);
    expect(await logText(stageId, fixed.id)).not.toContain('UPDATE_FAILED');

    const gone = await run(stageId, 'undeploy');
    expect([gone.status, gone.error, gone.logs]).toEqual(['DELETE_COMPLETE', null, {}]);
    // followed to its end, which the stack's name no longer answers
    expect(await logText(stageId, gone.id)).toContain(`${stack.name} AWS::CloudFormation::Stack DELETE_COMPLETE`);
    expect(findStack(aws.world, REGION, stack.id).status).toBe('DELETE_COMPLETE');
    expect(child.status).toBe('DELETE_COMPLETE');
    expect((await stageOf(stageId)).status).toBe('DELETE_COMPLETE');
    // the events table still tells the undeploy, by the deleted stack's id (its name answers 'does not exist')
    expect((await engine('GET', `/stages/${stageId}/events`)).json().events[0]).toMatchObject({
      logicalResourceId: stack.name,
      resourceType: 'AWS::CloudFormation::Stack',
      resourceStatus: 'DELETE_COMPLETE',
    });
  });

  it('a first create that rolls back leaves ROLLBACK_COMPLETE: Quick Deploy is refused until it is undeployed', async () => {
    const stageId = await environment('broken');
    await setCidr(stageId, '10.0.0.0/8');
    const failed = await run(stageId, 'deploy');
    expect(failed.status).toBe('ROLLBACK_COMPLETE');
    expect(failed.logs.net.errorMessages).toContainEqual(
      expect.objectContaining({
        resourceType: 'AWS::EC2::VPC',
        statusReason: expect.stringContaining('Value (10.0.0.0/8) for parameter cidrBlock is invalid'),
      }),
    );
    expect((await stageOf(stageId)).status).toBe('ROLLBACK_COMPLETE');

    const again = await engine('POST', `/stages/${stageId}/deploy`);
    expect([again.statusCode, again.json().message]).toEqual([409, 'Stack is in ROLLBACK_COMPLETE status, you must undeploy it first']);

    const gone = await run(stageId, 'undeploy');
    expect([gone.status, gone.logs]).toEqual(['DELETE_COMPLETE', {}]);
    await setCidr(stageId, '10.40.0.0/16');
    expect((await run(stageId, 'deploy')).status).toBe('CREATE_COMPLETE');
  });
});
