import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GitProvider } from '@gantry/contracts';
import { http } from '../../../api/http';
import { refetchAfterWrite } from '../../../api/refetch-after-write';
import { gitAccountKeys } from './keys';

export type ConnectGitAccountInput = { code: string; type: GitProvider; redirectUri?: string };

/** initiateOAuth (spec §7): exchanges the provider's code for an account of the project. 409 = already connected. */
export const connectGitAccount = (projectId: string, body: ConnectGitAccountInput) =>
  http.post<{ gitAccountId: string }>(`/ms-ap/projects/${projectId}/git-accounts`, body);

/** The project is given with each connection: a callback joins the project it was started from (connect-origin.ts). */
export function useConnectGitAccount() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ projectId, ...body }: ConnectGitAccountInput & { projectId: string }) => connectGitAccount(projectId, body),
    // runs as the page loads, while the list's first read may still be on its way
    onSettled: (_d, _e, { projectId }) => refetchAfterWrite(qc, gitAccountKeys.all(projectId)),
  });
}
