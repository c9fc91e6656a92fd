import fs from 'node:fs';
import path from 'node:path';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startAwsStandin, type AwsStandin } from '@gantry/test-support';
import { createTestApp, registerUser, createProject, bearer, until, insertGitAccount, type TestApp } from '../../../test/helpers.js';
import { createLocalGit } from '../../../test/local-git.js';

/**
 * ARTIFACT_STORE=s3://bucket/prefix: a real build (local git, the build's sandbox) keeps its artifacts as objects of
 * the bucket, not in the data dir; the API serves them from there, and deleting the pipeline deletes them. The bucket
 * is the AWS stand-in's S3, reached the standard way (AWS_ENDPOINT_URL_S3, AWS_REGION, the credential variables).
 */
const SPEC = `steps:
  Build:
    commands:
      - mkdir -p dist && echo hello > dist/index.html && head -c 300000 /dev/urandom > dist/blob.bin && echo '{"ok":true}' > out.json
    artifacts:
      files:
        site:
          - dist/
      json: out.json
`;
const BUCKET = 'acme-gantry';

let aws: AwsStandin;
let t: TestApp;
let git: ReturnType<typeof createLocalGit>;
let dataDir = '';
let token = '';
let projectId = '';
let gitAccountId = '';

const api = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url: `/ms-ap/projects/${projectId}${url}`, headers: bearer(token), payload });
const keys = () => [...aws.bucket(BUCKET).objects.keys()].sort();

beforeAll(async () => {
  aws = await startAwsStandin();
  aws.bucket(BUCKET, 'eu-central-1');
  Object.assign(process.env, aws.s3Env('eu-central-1'));
  git = createLocalGit();
  t = await createTestApp(
    { ARTIFACT_STORE: `s3://${BUCKET}/gantry` },
    { overrides: { pipelines: { gitAccess: git.access } }, beforeReady: async (_app, config) => void (dataDir = config.dataDir) },
  );
  token = (await registerUser(t, 's3-artifacts@example.com')).idToken;
  projectId = await createProject(t, token, 'S3 artifacts');
  gitAccountId = (await insertGitAccount(t, projectId)).id;
});
afterAll(async () => {
  await t?.close();
  git?.close();
  await aws?.close();
});

describe('build artifacts in an S3 bucket', () => {
  it('a build keeps its artifacts in the bucket, the API serves them from it, the pipeline takes them along when deleted', async () => {
    const repositoryUrl = git.createRepo('acme/s3-site', { 'gantry.yaml': SPEC }).url;
    const created = await api('POST', '/pipelines', { name: 'site', gitAccountId, repositoryUrl, branchFilter: 'main', automatedTrigger: false });
    expect(created.statusCode, created.body).toBe(201);
    const pipelineId = created.json().pipelineId as string;
    const buildId = (await api('POST', `/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' })).json().buildId as string;
    const build = await until(
      async () => (await api('GET', `/pipelines/${pipelineId}/builds/${buildId}`)).json(),
      (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
      'the build to finish',
    );
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');

    const prefix = `gantry/pipelines/${pipelineId}/${buildId}/Build`;
    expect(keys()).toEqual([`${prefix}/out.json`, `${prefix}/site.zip`]);
    expect(fs.existsSync(path.join(dataDir, 'artifacts'))).toBe(false);
    const [site, json] = build.steps[0].artifacts as { id: string; name: string; size: number }[];
    const object = (k: string) => aws.bucket(BUCKET).objects.get(k)!;
    expect([site!.name, site!.size]).toEqual(['site', object(`${prefix}/site.zip`).data.length]);
    expect(site!.size).toBeGreaterThan(300_000);

    const zip = await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/artifacts/${site!.id}`);
    expect([zip.statusCode, zip.headers['content-type'], zip.headers['content-disposition']]).toEqual([
      200,
      'application/zip',
      `attachment; filename="site.zip"; filename*=UTF-8''site.zip`,
    ]);
    expect(zip.rawPayload.equals(object(`${prefix}/site.zip`).data)).toBe(true);
    expect(zip.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect((await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/artifacts/${json!.id}`)).json()).toEqual({ ok: true });

    // an object gone from the bucket is a 404, as a file gone from the folder
    aws.bucket(BUCKET).objects.delete(`${prefix}/out.json`);
    expect((await api('GET', `/pipelines/${pipelineId}/builds/${buildId}/artifacts/${json!.id}`)).statusCode).toBe(404);

    expect((await api('DELETE', `/pipelines/${pipelineId}`)).statusCode).toBe(200);
    expect(keys()).toEqual([]);
  });
});
