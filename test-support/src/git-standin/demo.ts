/**
 * `npm run demo:git`: the git stand-in as a local GitHub/GitLab/Bitbucket for trying pipelines without an
 * account anywhere. It serves a sample repository and prints the settings to start Gantry with and a clone
 * command. GIT_DEMO_PORT picks the port (default 7070, else any free one); Ctrl+C stops it, and its
 * repositories (temporary) go with it.
 */
import { startGitStandin, type GitStandin } from './index.js';

const DEMO_REPO = 'demo/hello-gantry';
const DEFAULT_DEMO_PORT = 7070;

/** A pipeline that builds without anything but the host's shell: one step writing a page, kept as an artifact. */
const DEMO_FILES: Record<string, string> = {
  'README.md': '# hello-gantry\n\nA sample repository served by the Gantry git stand-in (`npm run demo:git`).\n',
  'gantry.yaml': [
    'stages: [clone, build]',
    'steps:',
    '  Clone:',
    '    stage: clone',
    '    type: git-clone',
    '  Build:',
    '    stage: build',
    '    commands:',
    '      - sh build.sh',
    '    artifacts:',
    '      files:',
    '        site: [dist/]',
    '',
  ].join('\n'),
  'build.sh': [
    'set -e',
    'mkdir -p dist',
    'echo "<h1>Hello from $GANTRY_BRANCH at $GANTRY_COMMIT</h1>" > dist/index.html',
    'echo "built dist/index.html for $GANTRY_PIPELINE_NAME"',
    '',
  ].join('\n'),
};

async function listen(port: number): Promise<GitStandin> {
  try {
    return await startGitStandin({ port });
  } catch (err) {
    if ((err as { code?: string }).code !== 'EADDRINUSE' || port === 0) throw err;
    return startGitStandin({ port: 0 });
  }
}

/** Starts the stand-in with the sample repository; answers it and the text telling a newcomer how to use it. */
async function startDemo(port: number) {
  const standin = await listen(port);
  // master: the branch filter a new pipeline starts with, so its spec page shows the repository's gantry.yaml
  await standin.createRepo(DEMO_REPO, DEMO_FILES, 'master');
  const token = standin.issueToken('github');
  const clone = new URL(`${standin.github.oauthUrl}/${DEMO_REPO}.git`);
  clone.username = standin.user('github').login;
  clone.password = token;
  const text = [
    '',
    `  Git stand-in (GitHub, GitLab and Bitbucket look-alike) is running at ${standin.url}`,
    `  Sample repository ${DEMO_REPO} (a gantry.yaml pipeline: clone, then build a page kept as an artifact)`,
    '',
    '  Start Gantry connected to it, in another terminal:',
    '',
    ...Object.entries(standin.env).map(([k, v]) => `    export ${k}=${v}`),
    '    npm start',
    '',
    '  Then in Gantry: Settings → Git Accounts → Connect Account → GitHub (the stand-in signs you in as',
    `  "${standin.user('github').login}" at once); create a pipeline on ${DEMO_REPO} and press Trigger pipeline on its page.`,
    '',
    `  Clone it (token ${token}); a push to master then builds the pipeline through its webhook:`,
    `    git clone ${clone}`,
    '',
    '  Ctrl+C stops the stand-in; its repositories are temporary.',
    '',
  ].join('\n');
  return { standin, text };
}

const { standin, text } = await startDemo(process.env.GIT_DEMO_PORT ? Number(process.env.GIT_DEMO_PORT) : DEFAULT_DEMO_PORT);
console.log(text);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void standin.close().then(() => process.exit(0));
  });
