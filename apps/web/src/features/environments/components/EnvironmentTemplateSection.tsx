import { Chip, Group, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { ENVIRONMENT_TEMPLATES, isTemplateName, type TemplateName } from '@gantry/contracts';
import { FormSection } from '../../../ui/FormSection';
import { templateDefaults, type EnvironmentForm } from './environment-form';

/** Start from a ready-made environment (spec §2, AWS + Cloudformation on create): the chosen template is kept in the address. */
export function EnvironmentTemplateSection({ form }: { form: EnvironmentForm }) {
  const [, setParams] = useSearchParams();
  const { template, templateValues } = form.values;
  const templateDef = template ? ENVIRONMENT_TEMPLATES[template] : null;
  const choose = (t: string) => {
    const next = isTemplateName(t) ? (t as TemplateName) : null;
    form.setValues(
      next ? { template: next, templateValues: templateDefaults(next), cloudProvider: 'aws', infrastructureAsCodeTool: 'cloudformation' } : { template: null },
    );
    setParams(next ? { template: next } : {}, { replace: true });
  };
  const setInput = (key: string, value: string | number) => form.setFieldValue(`templateValues.${key}`, value);

  return (
    <FormSection title="Template" description="Start from a ready-made environment">
      <Chip.Group value={template ?? ''} onChange={(t) => choose(t as string)}>
        <Group gap="xs">
          <Chip value="">No template</Chip>
          <Chip value="strapi">Strapi</Chip>
          <Chip value="kubernetes">Kubernetes</Chip>
        </Group>
      </Chip.Group>
      {templateDef && (
        <Stack gap="sm" mt="sm" data-testid="template-inputs">
          <Text size="sm" c="dimmed">
            {templateDef.description}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {templateDef.inputs.map((i) =>
              i.options ? (
                <Select
                  key={i.key}
                  label={i.label}
                  withAsterisk={i.required}
                  data={i.options.map(String)}
                  value={String(templateValues[i.key] ?? '')}
                  onChange={(x) => setInput(i.key, typeof i.options![0] === 'number' ? Number(x) : (x ?? ''))}
                  allowDeselect={false}
                />
              ) : typeof i.default === 'number' ? (
                <NumberInput
                  key={i.key}
                  label={i.label}
                  withAsterisk={i.required}
                  min={1}
                  value={Number(templateValues[i.key] ?? i.default)}
                  onChange={(x) => setInput(i.key, Number(x))}
                />
              ) : (
                <TextInput
                  key={i.key}
                  label={i.label}
                  withAsterisk={i.required}
                  value={String(templateValues[i.key] ?? '')}
                  onChange={(e) => setInput(i.key, e.currentTarget.value)}
                />
              ),
            )}
          </SimpleGrid>
        </Stack>
      )}
    </FormSection>
  );
}
