import type { ComponentDetails, IacTool, InfraCloudProvider } from '@gantry/contracts';
import type { FormApi } from '../../../ui/form';

/** The component form's values (spec §2, §5): selects hold null until chosen. */
export type ComponentFormValues = {
  name: string;
  type: string | null;
  description: string;
  cloudProvider: InfraCloudProvider | null;
  infrastructureAsCodeTool: IacTool;
  pipelineId: string | null;
  artifactStep: string | null;
};
export type ComponentForm = FormApi<ComponentFormValues>;

export const EMPTY_COMPONENT_FORM: ComponentFormValues = {
  name: '',
  type: null,
  description: '',
  cloudProvider: null,
  infrastructureAsCodeTool: 'terraform',
  pipelineId: null,
  artifactStep: null,
};

export const componentFormValues = (c: ComponentDetails): ComponentFormValues => ({
  name: c.name,
  type: c.type,
  description: c.description,
  cloudProvider: c.cloudProvider,
  infrastructureAsCodeTool: c.infrastructureAsCodeTool,
  pipelineId: c.pipelineId,
  artifactStep: c.artifactStep,
});

/** What ComponentBody / UpdateComponentBody are given. */
export const componentFormInput = (v: ComponentFormValues) => ({
  name: v.name,
  type: v.type ?? undefined,
  description: v.description,
  cloudProvider: v.cloudProvider ?? undefined,
  infrastructureAsCodeTool: v.infrastructureAsCodeTool,
  pipelineId: v.pipelineId ?? undefined,
  artifactStep: v.artifactStep ?? '',
});
