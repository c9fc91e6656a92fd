import { useEffect, useRef } from 'react';
import { isApiError, isPlanLimit } from '../api/errors';
import { toast } from '../api/toast';

/**
 * A failed load shows the server message as an error toast (spec §8), once per error, not on
 * every retry or poll; a 402 toasts nothing (the page shows its upgrade prompt). `show` replaces
 * the default toast where an area words its errors differently.
 */
export function useErrorToast(error: unknown, fallback?: string, show: (error: unknown) => void = (e) => toast.apiError(e, fallback)) {
  const shown = useRef<string | null>(null);
  const showRef = useRef(show);
  showRef.current = show;
  useEffect(() => {
    if (!error) {
      shown.current = null;
      return;
    }
    const key = isApiError(error) ? `${error.status}:${error.code}:${error.message}` : String(error);
    if (shown.current === key || isPlanLimit(error)) return;
    shown.current = key;
    showRef.current(error);
  }, [error]);
}
