import { repositoryWebUrl } from '@gantry/contracts';

export { repositoryWebUrl, repositoryName } from '@gantry/contracts';

/** Commit display rules (spec §9): hashes show 7 characters; no link when the version has a dash; /commits/ on bitbucket, /commit/ elsewhere. */
export const shortSha = (sha: string | null | undefined) => (sha ? sha.slice(0, 7) : '');

export function commitUrl(opts: {
  repositoryUrl: string | null | undefined;
  sha: string | null | undefined;
  version?: string | null;
  provider?: string | null;
}): string | null {
  const { repositoryUrl, sha, version, provider } = opts;
  if (!sha) return null;
  if ((version ?? '').includes('-')) return null;
  const web = repositoryWebUrl(repositoryUrl);
  if (!web) return null;
  const bitbucket = provider ? provider === 'bitbucket' : /bitbucket/i.test(web);
  return `${web}/${bitbucket ? 'commits' : 'commit'}/${sha}`;
}
