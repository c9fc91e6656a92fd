/** A browsable https address of a repository URL (https or scp-like git@host:owner/repo.git). */
export function repositoryWebUrl(repositoryUrl: string | null | undefined): string | null {
  if (!repositoryUrl) return null;
  let url = repositoryUrl.trim();
  const scp = /^[\w.-]+@([^:/]+):(.+)$/.exec(url);
  if (scp) url = `https://${scp[1]}/${scp[2]}`;
  if (!/^https?:\/\//i.test(url)) return null;
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u
      .toString()
      .replace(/\.git\/?$/, '')
      .replace(/\/$/, '');
  } catch {
    return null;
  }
}

/** owner/repo of a repository URL, for display. */
export function repositoryName(repositoryUrl: string | null | undefined): string {
  const web = repositoryWebUrl(repositoryUrl);
  if (!web) return repositoryUrl ?? '';
  try {
    return new URL(web).pathname.replace(/^\/+/, '');
  } catch {
    return web;
  }
}
