import { useQuery } from '@tanstack/react-query';
import type { Microservice } from '@gantry/contracts';
import { http } from '../../../api/http';
import { microservicePath, serviceKeys } from './keys';

/** getMicroservice (spec §7). */
export const getMicroservice = (projectId: string, name: string) => http.get<Microservice>(microservicePath(projectId, name));

export const useMicroservice = (projectId: string, name: string | undefined) =>
  useQuery({
    queryKey: serviceKeys.detail(projectId, name ?? ''),
    queryFn: () => getMicroservice(projectId, name ?? ''),
    enabled: Boolean(projectId && name),
  });
