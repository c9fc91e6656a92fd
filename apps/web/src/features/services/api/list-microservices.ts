import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Microservice, MicroserviceList } from '@gantry/contracts';
import { http } from '../../../api/http';
import { microservicesPath, serviceKeys } from './keys';

/** listMicroservices (spec §7): the project's private services and the public catalogue, by name. */
export const listMicroservices = (projectId: string) => http.get<MicroserviceList>(microservicesPath(projectId));

export const microservicesQuery = (projectId: string) =>
  queryOptions({
    queryKey: serviceKeys.list(projectId),
    queryFn: () => listMicroservices(projectId),
    select: (d: MicroserviceList): Microservice[] => [...d.microservices].sort((a, b) => a.name.localeCompare(b.name)),
  });

export const useMicroservices = (projectId: string | undefined) => useQuery({ ...microservicesQuery(projectId ?? ''), enabled: Boolean(projectId) });
