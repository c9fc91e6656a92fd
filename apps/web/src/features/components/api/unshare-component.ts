import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Component } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

/** Revokes a project's access to the component (spec §2 Share: Revoke). */
export const unshareComponent = (projectId: string, componentId: string, targetProjectId: string) =>
  http.delete<Component>(`${componentPath(projectId, componentId)}/share/${targetProjectId}`);

export function useUnshareComponent(projectId: string, componentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (targetProjectId: string) => unshareComponent(projectId, componentId, targetProjectId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: componentKeys.detailsOf(projectId, componentId) });
      void qc.invalidateQueries({ queryKey: componentKeys.list(projectId) });
    },
  });
}
