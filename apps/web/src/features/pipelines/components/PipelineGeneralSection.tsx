import { TextInput } from '@mantine/core';
import { FormSection } from '../../../ui/FormSection';
import type { PipelineForm } from './pipeline-form';

export function PipelineGeneralSection({ form, editing }: { form: PipelineForm; editing: boolean }) {
  return (
    <FormSection title="General">
      <TextInput
        label="Pipeline name"
        placeholder="my-service"
        withAsterisk
        disabled={editing}
        {...form.getInputProps('name')}
        description={editing ? 'The name of a pipeline cannot be changed' : '3 to 30 characters'}
      />
    </FormSection>
  );
}
