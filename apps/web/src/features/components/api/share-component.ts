import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Component } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

/** Gives another project of the user READ access to the component (spec §2 Share). */
export const shareComponent = (projectId: string, componentId: string, granteeId: string) =>
  http.post<Component>(`${componentPath(projectId, componentId)}/share`, { projectId: granteeId });

export function useShareComponent(projectId: string, componentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (granteeId: string) => shareComponent(projectId, componentId, granteeId),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: componentKeys.detailsOf(projectId, componentId) });
      void qc.invalidateQueries({ queryKey: componentKeys.list(projectId) });
    },
  });
}
