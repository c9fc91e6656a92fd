import { messages } from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { useErrorToast } from '../../../ui/use-error-toast';

/** With a code but no message, the pipeline and build lists say 'Something went wrong! Error: {code}' (spec §8). */
const showListError = (error: unknown) => {
  if (isApiError(error) && !error.hasServerMessage) toast.info(`${messages.somethingWentWrong} Error: ${error.code}`);
  else toast.apiError(error);
};

/** Error toasts of the pipeline and build lists: once per error, none for a 402. */
export const useListErrorToast = (error: unknown) => useErrorToast(error, undefined, showListError);
