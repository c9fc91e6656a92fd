import { Select, SimpleGrid, TextInput, Textarea } from '@mantine/core';
import { INFRA_CLOUD_PROVIDERS, stageMessages, type IacTool, type InfraCloudProvider } from '@gantry/contracts';
import { FormSection } from '../../../ui/FormSection';
import { providerLabel } from '../lib/labels';
import type { EnvironmentForm, EnvironmentFormMode } from './environment-form';

const PROVIDER_OPTIONS = INFRA_CLOUD_PROVIDERS.map((p) => ({ value: p, label: providerLabel(p) }));
const TOOL_OPTIONS = [
  { value: 'terraform', label: 'Terraform' },
  { value: 'cloudformation', label: 'Cloudformation' },
];

/** Name, provider, description and IaC tool (spec §2): a non-AWS provider means Terraform, no template and no saving schedule. */
export function EnvironmentGeneralSection({ form, mode, locked }: { form: EnvironmentForm; mode: EnvironmentFormMode; locked: boolean }) {
  const v = form.values;
  const providerToolLocked = locked || mode === 'replicate';
  const nameLocked = mode === 'edit' && locked;
  const setProvider = (p: InfraCloudProvider) =>
    form.setValues(p === 'aws' ? { cloudProvider: p } : { cloudProvider: p, infrastructureAsCodeTool: 'terraform', template: null, saving: false });
  const setTool = (t: IacTool) => form.setValues(t === 'cloudformation' ? { infrastructureAsCodeTool: t } : { infrastructureAsCodeTool: t, template: null });

  return (
    <FormSection title="General">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput
          label="Name"
          placeholder="staging"
          withAsterisk
          description={nameLocked ? undefined : stageMessages.nameRule}
          // under the input, so it stays level with the provider beside it
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          {...form.getInputProps('name')}
          disabled={nameLocked}
        />
        <Select
          label="Cloud Provider"
          withAsterisk
          data={PROVIDER_OPTIONS}
          value={v.cloudProvider}
          onChange={(p) => p && setProvider(p as InfraCloudProvider)}
          disabled={providerToolLocked}
          error={form.errors.cloudProvider}
          allowDeselect={false}
        />
      </SimpleGrid>
      <Textarea label="Description" withAsterisk autosize minRows={2} mt="sm" {...form.getInputProps('description')} />
      <Select
        label="IaC Tool"
        withAsterisk
        mt="sm"
        maw={360}
        allowDeselect={false}
        data={TOOL_OPTIONS}
        value={v.infrastructureAsCodeTool}
        onChange={(t) => t && setTool(t as IacTool)}
        disabled={providerToolLocked || v.cloudProvider !== 'aws'}
        error={form.errors.infrastructureAsCodeTool}
      />
    </FormSection>
  );
}
