import { useMutation } from '@tanstack/react-query';
import type { Artifact } from '@gantry/contracts';
import { ApiError } from '../../../api/errors';
import { refreshIdToken } from '../../../api/http';
import { session } from '../../../api/session';
import { buildPath } from './keys';

/** The file name a download is saved under: `<name>.zip` for file sets, the name itself for json. */
export const artifactFileName = (a: Pick<Artifact, 'kind' | 'name'>) => (a.kind === 'files' ? `${a.name}.zip` : a.name);

/**
 * Fetches the artifact with the bearer token (a plain link cannot carry it) and saves the blob.
 * An expired token is refreshed once, like the JSON client does.
 */
export async function downloadArtifact(projectId: string, pipelineId: string, buildId: string, artifact: Artifact) {
  const url = `${buildPath(projectId, pipelineId, buildId)}/artifacts/${artifact.id}`;
  const get = (token: string | null) => fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  let res = await get(session.idToken());
  if (res.status === 401) {
    const fresh = await refreshIdToken();
    if (fresh) res = await get(fresh);
  }
  if (!res.ok) {
    let body: Record<string, unknown> = {};
    try {
      body = (await res.json()) as Record<string, unknown>;
    } catch {
      /* not JSON */
    }
    throw new ApiError(res.status, body);
  }
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = artifactFileName(artifact);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

export function useDownloadArtifact(projectId: string, pipelineId: string, buildId: string) {
  return useMutation({ mutationFn: (artifact: Artifact) => downloadArtifact(projectId, pipelineId, buildId, artifact) });
}
