import { Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormSection } from '../../../ui/FormSection';
import { EnvironmentVariablesField } from './EnvironmentVariablesField';
import { MONO, type PipelineForm } from './pipeline-form';

/** Work directory and the variables every step sees (spec §5). */
export function PipelineBuildSection({ form }: { form: PipelineForm }) {
  const [envMessage, setEnvMessage] = useState<string | null>(null);
  return (
    <FormSection title="Build" description="Where the pipeline finds its spec and what its steps see">
      <TextInput
        label="Work directory"
        placeholder="/"
        {...form.getInputProps('workDir')}
        description="The pipeline spec file (gantry.yaml) and the schema file (schema.json) are expected in this directory"
        styles={MONO}
      />
      <div>
        <Text size="sm" fw={500} mb={6}>
          Environment variables
        </Text>
        <EnvironmentVariablesField
          rows={form.values.environmentVariables}
          onChange={(rows) => form.setFieldValue('environmentVariables', rows)}
          errors={form.errors}
          message={envMessage}
          onMessage={setEnvMessage}
        />
      </div>
    </FormSection>
  );
}
