import { Select, TextInput, Textarea } from '@mantine/core';
import { useMemo } from 'react';
import { FormSection } from '../../../ui/FormSection';
import { FORM_TYPES, typeLabel } from '../lib/labels';
import type { ComponentForm } from './component-form';

/** Name, type and description (spec §2). */
export function ComponentGeneralSection({ form, editing }: { form: ComponentForm; editing: boolean }) {
  const type = form.values.type;
  const typeOptions = useMemo(() => {
    const list: string[] = [...FORM_TYPES];
    // A saved lower-case form stays selectable as it is.
    if (type && !list.includes(type)) list.push(type);
    return list.map((t) => ({ value: t, label: typeLabel(t) }));
  }, [type]);

  return (
    <FormSection title="General">
      <TextInput
        label="Component name"
        placeholder="my-component"
        withAsterisk
        disabled={editing}
        {...form.getInputProps('name')}
        description={editing ? 'The name of a component cannot be changed' : '3 to 30 characters'}
      />
      <Select
        label="Component type"
        placeholder="Select a component type"
        withAsterisk
        data={typeOptions}
        {...form.getInputProps('type')}
        allowDeselect={false}
        maxDropdownHeight={300}
      />
      <Textarea
        label="Description"
        placeholder="What this component creates and how to use it"
        withAsterisk
        autosize
        minRows={3}
        maxRows={8}
        {...form.getInputProps('description')}
      />
    </FormSection>
  );
}
