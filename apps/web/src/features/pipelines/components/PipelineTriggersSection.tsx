import { Switch, TextInput } from '@mantine/core';
import { FormSection } from '../../../ui/FormSection';
import { MONO, type PipelineForm } from './pipeline-form';

/** Automated trigger, branch filter and modified files (spec §5); the filters are off while the trigger is. */
export function PipelineTriggersSection({ form }: { form: PipelineForm }) {
  const off = !form.values.automatedTrigger;
  return (
    <FormSection title="Triggers" description="Run the pipeline automatically when matching commits are pushed">
      <Switch
        label="Automated trigger"
        description="Trigger a build on every push that matches the branch filter and modified files"
        {...form.getInputProps('automatedTrigger', { type: 'checkbox' })}
      />
      <TextInput
        label="Branch filter"
        placeholder="master"
        withAsterisk
        disabled={off}
        {...form.getInputProps('branchFilter')}
        description="A branch name or a regular expression, e.g. master or release/.*"
        styles={MONO}
      />
      <TextInput
        label="Modified files"
        placeholder="src/**, package.json"
        disabled={off}
        {...form.getInputProps('modifiedFiles')}
        description="Glob patterns separated by commas. Empty or / means any file change."
        styles={MONO}
      />
    </FormSection>
  );
}
