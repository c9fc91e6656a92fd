import { Select } from '@mantine/core';
import { INFRA_CLOUD_PROVIDERS, type IacTool, type InfraCloudProvider } from '@gantry/contracts';
import { FormSection } from '../../../ui/FormSection';
import { IAC_LABELS, providerLabel } from '../lib/labels';
import type { ComponentForm } from './component-form';

const PROVIDER_OPTIONS = INFRA_CLOUD_PROVIDERS.map((p) => ({ value: p, label: providerLabel(p) }));
const TOOL_OPTIONS = [
  { value: 'terraform', label: IAC_LABELS.terraform },
  { value: 'cloudformation', label: IAC_LABELS.cloudformation },
];

/** Cloud provider and IaC tool (spec §2): Cloudformation only on AWS, any other provider goes back to Terraform. */
export function ComponentInfrastructureSection({ form }: { form: ComponentForm }) {
  const { cloudProvider, infrastructureAsCodeTool } = form.values;
  const onProvider = (v: string | null) => {
    const provider = (v as InfraCloudProvider | null) ?? null;
    form.setValues((f) => ({ cloudProvider: provider, infrastructureAsCodeTool: provider === 'aws' ? f.infrastructureAsCodeTool : 'terraform' }));
    form.clearErrors('cloudProvider', 'infrastructureAsCodeTool');
  };

  return (
    <FormSection title="Infrastructure" description="Where the component runs and how it is deployed">
      <Select
        label="Cloud provider"
        placeholder="Select a cloud provider"
        withAsterisk
        data={PROVIDER_OPTIONS}
        value={cloudProvider}
        onChange={onProvider}
        error={form.errors.cloudProvider}
        allowDeselect={false}
      />
      <Select
        label="Infrastructure as code tool"
        withAsterisk
        disabled={cloudProvider !== 'aws'}
        data={TOOL_OPTIONS}
        value={infrastructureAsCodeTool}
        onChange={(v) => form.setFieldValue('infrastructureAsCodeTool', (v as IacTool | null) ?? 'terraform')}
        error={form.errors.infrastructureAsCodeTool}
        allowDeselect={false}
        description={cloudProvider !== 'aws' ? 'Cloudformation is available for Amazon Web Services only' : undefined}
      />
    </FormSection>
  );
}
