import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ComponentBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentsPath } from './keys';

export const createComponent = (projectId: string, body: ComponentBody) => http.post<{ componentId: string }>(componentsPath(projectId), body);

export function useCreateComponent(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ComponentBody) => createComponent(projectId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: componentKeys.list(projectId) }),
  });
}
