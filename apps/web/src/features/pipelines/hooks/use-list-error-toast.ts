import { useEffect, useRef } from 'react';
import { messages } from '@gantry/contracts';
import { isApiError, isPlanLimit } from '../../../api/errors';
import { toast } from '../../../api/toast';

/**
 * Error toasts of the pipeline and build lists (spec §8): the server message; with a code but
 * no message an info toast 'Something went wrong! Error: {code}'; a 402 toasts nothing (the page
 * shows its upgrade state). Each error shows once, not on every poll.
 */
export function useListErrorToast(error: unknown) {
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (!error) {
      shown.current = null;
      return;
    }
    const key = isApiError(error) ? `${error.status}:${error.code}:${error.message}` : String(error);
    if (shown.current === key || isPlanLimit(error)) return;
    shown.current = key;
    if (isApiError(error) && !error.hasServerMessage) toast.info(`${messages.somethingWentWrong} Error: ${error.code}`);
    else toast.apiError(error);
  }, [error]);
}
