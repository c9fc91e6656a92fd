import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startAwsStandin, type AwsStandin } from '@gantry/test-support';
import { bearer, pipelineOnApi, startRoles, until } from './helpers.js';
import { createLocalGit } from './local-git.js';

/**
 * `gantry serve` and `gantry worker` as on two machines: one PostgreSQL database, a data dir each, and
 * ARTIFACT_STORE=s3://… for both. A build triggered on the api process is run by the worker; its artifacts are
 * downloaded from the api process, which never saw the worker's disk.
 */
const SPEC = `steps:
  Build:
    commands:
      - mkdir -p dist && echo "built by $HOSTNAME-worker" > dist/index.html && echo '{"from":"worker"}' > out.json
    artifacts:
      files:
        site:
          - dist/
      json: out.json
`;
const BUCKET = 'gantry-shared';
let aws: AwsStandin;
let git: ReturnType<typeof createLocalGit>;
let roles: Awaited<ReturnType<typeof startRoles>>;
let api: FastifyInstance;
const dataDirs = { api: fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-s3-api-')), worker: fs.mkdtempSync(path.join(os.tmpdir(), 'gantry-s3-worker-')) };

beforeAll(async () => {
  if (!process.env.TEST_DATABASE_URL) return;
  aws = await startAwsStandin();
  aws.bucket(BUCKET, 'eu-west-1');
  Object.assign(process.env, aws.s3Env('eu-west-1'));
  git = createLocalGit();
  roles = await startRoles((role) => ({ GANTRY_DATA_DIR: dataDirs[role], ARTIFACT_STORE: `s3://${BUCKET}/builds` }), {
    overrides: { pipelines: { gitAccess: git.access } },
  });
  api = roles.api;
}, 60_000);
afterAll(async () => {
  await roles?.close();
  git?.close();
  await aws?.close();
  for (const dir of Object.values(dataDirs)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('an api process and a worker with data dirs of their own, sharing an S3 artifact store', () => {
  it.runIf(process.env.TEST_DATABASE_URL)("the worker's build artifacts are downloaded from the api process", async () => {
    const { p, pipelineId, idToken } = await pipelineOnApi(api, git, { email: 'worker-s3@example.com', name: 'Shared', spec: SPEC });
    const buildId = (
      await api.inject({ method: 'POST', url: `${p}/pipelines/${pipelineId}/builds`, headers: bearer(idToken), payload: { ref: 'refs/heads/main' } })
    ).json().buildId as string;
    const build = await until(
      async () => (await api.inject({ url: `${p}/pipelines/${pipelineId}/builds/${buildId}`, headers: bearer(idToken) })).json(),
      (b) => ['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status),
      'the build to be run by the worker',
    );
    expect(build.status, build.errorMessage).toBe('SUCCEEDED');
    const [site, json] = build.steps[0].artifacts as { id: string }[];
    const zip = await api.inject({ url: `${p}/pipelines/${pipelineId}/builds/${buildId}/artifacts/${site!.id}`, headers: bearer(idToken) });
    expect([zip.statusCode, zip.headers['content-type']]).toEqual([200, 'application/zip']);
    expect(zip.rawPayload.includes(Buffer.from('dist/index.html'))).toBe(true);
    const out = await api.inject({ url: `${p}/pipelines/${pipelineId}/builds/${buildId}/artifacts/${json!.id}`, headers: bearer(idToken) });
    expect(out.json()).toEqual({ from: 'worker' });
    // an api process runs no jobs: the worker ran it, and neither keeps artifacts on its disk
    expect(fs.readdirSync(dataDirs.api)).not.toContain('artifacts');
    expect(fs.readdirSync(dataDirs.worker)).not.toContain('artifacts');
    expect([...aws.bucket(BUCKET).objects.keys()].sort()).toEqual([
      `builds/pipelines/${pipelineId}/${buildId}/Build/out.json`,
      `builds/pipelines/${pipelineId}/${buildId}/Build/site.zip`,
    ]);
  });
});
