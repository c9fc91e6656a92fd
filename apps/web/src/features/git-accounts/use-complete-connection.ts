import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { GIT_PROVIDERS, type GitProvider } from '@gantry/contracts';
import { isApiError } from '../../api/errors';
import { currentProjectOf, session } from '../../api/session';
import { toast } from '../../api/toast';
import { useProjects } from '../projects';
import { useConnectGitAccount } from './api/connect-git-account';
import { takeConnectOrigin } from './connect-origin';

/** Codes already sent in this page's life: a code works once, and StrictMode runs effects twice. */
const handledCodes = new Set<string>();

export const connectingText = (type: GitProvider) => `Connecting with ${type.toUpperCase()} account. Please wait...`;
export const CONNECTED_TEXT = 'You have successfully connected your account.';
export const alreadyExistsText = (type: GitProvider) => `${type.toUpperCase()} account you are trying to connect already exists.`;
export const CONNECT_FAILED_TEXT = 'Error while connecting your account.';

/**
 * Back from the provider with ?code=…&type=… (spec §2.9): connect the account, then take code
 * and type (and the provider's state) off the URL. Runs only for bitbucket, github or gitlab with a code.
 * The account joins the project the connection was started from when this browser remembers it and the user is
 * still its member (a login shown in place meanwhile re-picks the current project), which then becomes the current
 * one; otherwise the current project.
 */
export function useCompleteGitConnection(projectId: string | undefined) {
  const [params, setParams] = useSearchParams();
  const connect = useConnectGitAccount();
  const code = params.get('code');
  const type = params.get('type');
  const wanted = Boolean(projectId && code && type && (GIT_PROVIDERS as readonly string[]).includes(type));
  const projects = useProjects(wanted);
  // the list decides where the account goes; without it (an error) the current project does
  const list = projects.data ?? (projects.isError ? [] : undefined);

  useEffect(() => {
    if (!wanted || !projectId || !code || handledCodes.has(code) || !list) return;
    handledCodes.add(code);
    const provider = type as GitProvider;
    const originId = takeConnectOrigin(params.get('state') ?? '', provider);
    const origin = list.find((p) => p.id === originId);
    if (origin && origin.id !== projectId) {
      session.setProject(currentProjectOf(origin));
    }
    const waiting = toast.info(connectingText(provider));
    connect.mutate(
      // The server repeats the redirect_uri it put in the authorize URL, as the token exchange requires.
      { projectId: origin?.id ?? projectId, code, type: provider },
      {
        onSuccess: () => toast.success(CONNECTED_TEXT),
        onError: (e) => toast.error(isApiError(e) && e.status === 409 ? alreadyExistsText(provider) : CONNECT_FAILED_TEXT),
        onSettled: () => {
          toast.dismiss(waiting);
          setParams(
            (prev) => {
              const next = new URLSearchParams(prev);
              ['code', 'type', 'state'].forEach((k) => next.delete(k));
              return next;
            },
            { replace: true },
          );
        },
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [wanted, projectId, code, type, list]);

  return { connecting: connect.isPending };
}
