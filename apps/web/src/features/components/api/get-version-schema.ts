import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ComponentVersionSchema } from '@gantry/contracts';
import { http } from '../../../api/http';
import { componentKeys, componentPath } from './keys';

/** The inputs and outputs of a component's build: 'LATEST' or a version id. */
export const getVersionSchema = (projectId: string, componentId: string, version: string) =>
  http.get<ComponentVersionSchema>(`${componentPath(projectId, componentId)}/versions/${version === 'LATEST' ? 'latest' : version}/schema`);

export const versionSchemaQuery = (projectId: string, componentId: string, version: string) =>
  queryOptions({ queryKey: componentKeys.schema(projectId, componentId, version), queryFn: () => getVersionSchema(projectId, componentId, version) });

export const useVersionSchema = (projectId: string, componentId: string | null | undefined, version: string | null | undefined) =>
  useQuery({ ...versionSchemaQuery(projectId, componentId ?? '', version ?? ''), enabled: Boolean(projectId && componentId && version) });
