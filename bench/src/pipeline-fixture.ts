import { io as ioClient, type Socket } from 'socket.io-client';
import { startBenchGantry } from './bench-gantry.js';
import { startGitStandin } from '@gantry/test-support/git-standin/index';
import { apiCaller, benchProject, type Call } from './bench-project.js';

export interface PipelineFixture {
  call: Call;
  idToken: string;
  projectId: string;
  /** The pipeline made of each repository given, by repository name. */
  pipelineIds: Record<string, string>;
  /** A socket.io client of the bench user, in the project's room. */
  socket: () => Promise<Socket>;
  /** Triggers a build of the pipeline and answers its id. */
  trigger: (pipelineId: string) => Promise<string>;
  /** The build once it has finished (SUCCEEDED, FAILED or ABORTED), polled. */
  finished: (pipelineId: string, buildId: string) => Promise<any>;
  close: () => Promise<void>;
}

/**
 * A real Gantry (in this process, PGlite in a temporary data dir) with the git provider stand-in,
 * a verified bench user, a project, and one manual pipeline per repository of `repos` (`gantry.yaml` → spec).
 */
export async function pipelineFixture(repos: Record<string, string>): Promise<PipelineFixture> {
  const standin = await startGitStandin();
  for (const [name, spec] of Object.entries(repos)) await standin.createRepo(`bench/${name}`, { 'gantry.yaml': spec });
  const gantry = await startBenchGantry('fixture', standin.env);
  const sockets: Socket[] = [];
  const close = async () => {
    sockets.forEach((s) => s.close());
    await gantry.close();
    await standin.close();
  };
  try {
    const call = apiCaller(gantry.url);
    const { idToken, projectId } = await benchProject(call, () => gantry.app.services.mailer.outbox());
    const p = `/ms-ap/projects/${projectId}`;
    const { gitAccountId } = await call('POST', `${p}/git-accounts`, { code: standin.issueCode('github'), type: 'github' }, idToken);
    const listed = (await call('GET', `${p}/git-accounts/${gitAccountId}/repositories`, undefined, idToken)).repositories as {
      fullName: string;
      url: string;
    }[];
    const pipelineIds: Record<string, string> = {};
    for (const name of Object.keys(repos)) {
      const repositoryUrl = listed.find((r) => r.fullName === `bench/${name}`)!.url;
      const body = { name, gitAccountId, repositoryUrl, branchFilter: 'main', automatedTrigger: false };
      pipelineIds[name] = (await call('POST', `${p}/pipelines`, body, idToken)).pipelineId;
    }
    return {
      call,
      idToken,
      projectId,
      pipelineIds,
      socket: async () => {
        const s = ioClient(gantry.url, { path: '/ms-realtime/websockets/', query: { Authorization: idToken }, transports: ['websocket'] });
        sockets.push(s);
        await new Promise<void>((r) => s.once('connect', () => r()));
        await s.emitWithAck('project:join', projectId);
        return s;
      },
      trigger: async (pipelineId) => (await call('POST', `${p}/pipelines/${pipelineId}/builds`, { ref: 'refs/heads/main' }, idToken)).buildId,
      finished: async (pipelineId, buildId) => {
        for (;;) {
          const b = await call('GET', `${p}/pipelines/${pipelineId}/builds/${buildId}`, undefined, idToken);
          if (['SUCCEEDED', 'FAILED', 'ABORTED'].includes(b.status)) return b;
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
