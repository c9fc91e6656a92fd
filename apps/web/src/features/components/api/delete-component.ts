import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OkBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

export const deleteComponent = (projectId: string, componentId: string) => http.delete<OkBody>(componentPath(projectId, componentId));

export function useDeleteComponent(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (componentId: string) => deleteComponent(projectId, componentId),
    // The details stay cached (not refetched) so the page being left does not ask for a deleted component.
    onSuccess: () => qc.invalidateQueries({ queryKey: componentKeys.list(projectId) }),
  });
}
