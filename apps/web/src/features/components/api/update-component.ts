import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Component, UpdateComponentBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

export const updateComponent = (projectId: string, componentId: string, body: UpdateComponentBody) =>
  http.put<Component>(componentPath(projectId, componentId), body);

export function useUpdateComponent(projectId: string, componentId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateComponentBody) => updateComponent(projectId, componentId, body),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: componentKeys.list(projectId) });
      void qc.invalidateQueries({ queryKey: componentKeys.detailsOf(projectId, componentId) });
      void qc.invalidateQueries({ queryKey: componentKeys.versions(projectId, componentId) });
      void qc.invalidateQueries({ queryKey: componentKeys.building(projectId, componentId) });
    },
  });
}
