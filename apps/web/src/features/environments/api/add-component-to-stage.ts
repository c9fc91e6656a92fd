import { useMutation, useQueryClient } from '@tanstack/react-query';
import { defaultConfigurations, defaultResourceName, RESOURCE_LATEST, type Resource } from '@gantry/contracts';
import { http } from '../../../api/http';
import { getVersionSchema } from '../../components';
import { stagePath } from './paths';
import { stageKeys } from './keys';

export type AddOutcome = { added: Resource } | { needsInputs: true };

/**
 * Add to Environment (from a component's page): a resource of the component at LATEST with its inputs' defaults, named after
 * the component. When a required input has no default nothing is created: the environment page's
 * resource modal asks for the values instead.
 */
export async function addComponentToStage(projectId: string, stageId: string, component: { id: string; name: string }): Promise<AddOutcome> {
  const base = stagePath(projectId, stageId);
  const [schema, { resources }] = await Promise.all([
    getVersionSchema(projectId, component.id, RESOURCE_LATEST),
    http.get<{ resources: Resource[] }>(`${base}/resources`),
  ]);
  const configurations = defaultConfigurations(schema.inputs);
  if (!configurations) return { needsInputs: true };
  const name = defaultResourceName(
    component.name,
    resources.map((r) => r.name),
  );
  const added = await http.post<Resource>(`${base}/resources`, { name, componentId: component.id, componentVersion: RESOURCE_LATEST, configurations });
  return { added };
}

export function useAddComponentToStage(projectId: string, component: { id: string; name: string }) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (stageId: string) => addComponentToStage(projectId, stageId, component),
    onSuccess: (_, stageId) => void qc.invalidateQueries({ queryKey: stageKeys.resources(projectId, stageId) }),
  });
}
