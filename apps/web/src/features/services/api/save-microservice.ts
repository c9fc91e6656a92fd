import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateMicroserviceBody, Microservice, OkBody, UpdateMicroserviceBody } from '@gantry/contracts';
import { http } from '../../../api/http';
import { microservicePath, microservicesPath, serviceKeys } from './keys';

/** createMicroservice, updateMicroservice and deleteMicroservice (spec §7); each refreshes the services area. */
export const createMicroservice = (projectId: string, body: CreateMicroserviceBody) => http.post<Microservice>(microservicesPath(projectId), body);
export const updateMicroservice = (projectId: string, name: string, body: UpdateMicroserviceBody) =>
  http.put<Microservice>(microservicePath(projectId, name), body);
export const deleteMicroservice = (projectId: string, name: string) => http.delete<OkBody>(microservicePath(projectId, name));

export function useCreateMicroservice(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMicroserviceBody) => createMicroservice(projectId, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: serviceKeys.list(projectId) }),
  });
}

export function useUpdateMicroservice(projectId: string, name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateMicroserviceBody) => updateMicroservice(projectId, name, body),
    onSuccess: (saved) => {
      qc.setQueryData(serviceKeys.detail(projectId, name), saved);
      // Registry or repository may be another now: its versions are read again.
      qc.removeQueries({ queryKey: serviceKeys.versions(projectId, name) });
      void qc.invalidateQueries({ queryKey: serviceKeys.list(projectId) });
    },
  });
}

export function useDeleteMicroservice(projectId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => deleteMicroservice(projectId, name),
    onSuccess: (_ok, name) => {
      qc.removeQueries({ queryKey: serviceKeys.detail(projectId, name) });
      qc.removeQueries({ queryKey: serviceKeys.versions(projectId, name) });
      void qc.invalidateQueries({ queryKey: serviceKeys.list(projectId) });
    },
  });
}
