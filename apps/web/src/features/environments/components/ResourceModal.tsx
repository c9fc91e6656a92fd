import {
  Alert,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Modal,
  PasswordInput,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import {
  ResourceBody,
  checkInputValues,
  rankReferenceSuggestions,
  resourceMessages,
  RESOURCE_LATEST,
  SENSITIVE_PLACEHOLDER,
  versionLabel,
  type ComponentVersion,
  type Resource,
  type SchemaInput,
  type ResourceConfiguration,
} from '@gantry/contracts';
import { errorMessage } from '../../../api/errors';
import { toast } from '../../../api/toast';
import { componentVersionsQuery, useVersionSchema, versionSchemaQuery } from '../../components';
import { useResourceMutations } from '../api/resources';
import { useProjectPermission } from '../../../api/permissions';

type Entry = { value: string; reference: boolean };
const NO_VERSIONS =
  'This component does not have any available versions yet. To use this component, you need to have at least one successful build for the pipeline associated with this component.';

/** The versions a resource may use: successful builds, newest first (spec §2). */
const succeededNewestFirst = (d: { versions: ComponentVersion[] }) =>
  d.versions.filter((v) => v.status === 'SUCCEEDED').sort((a, b) => Date.parse(b.stopDate ?? '0') - Date.parse(a.stopDate ?? '0'));

/**
 * Where an input's error is kept: under its own key, as the server names it (configurations.<input>), never under the
 * resource's own fields, so an input called name or componentVersion has its message and the resource's name its own.
 */
const inputErrorKey = (input: string) => `configurations.${input}`;

/** Spec §9: 600px tall on windows up to 768px, else 750px. */
const modalHeight = () => (typeof window !== 'undefined' && window.innerHeight <= 768 ? 600 : 750);

/** A literal typed as the input says (numbers and booleans are not strings to Terraform's checks). */
function literal(input: SchemaInput, raw: string): string | number | boolean {
  if (input.type === 'number' || input.type === 'integer') return raw.trim() !== '' && !Number.isNaN(Number(raw)) ? Number(raw) : raw;
  if (input.type === 'boolean' || input.type === 'bool') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

/**
 * Create resource / Configure resource (spec §2 "Resource modal"): name and version (SUCCEEDED builds,
 * newest first, 7 characters, or LATEST), one input per schema input, literal or reference mode with
 * suggestions ranked by name similarity ("suggested" above 0.65).
 */
export function ResourceModal({
  opened,
  onClose,
  projectId,
  stageId,
  component,
  editing,
  others,
}: {
  opened: boolean;
  onClose: () => void;
  projectId: string;
  stageId: string;
  component: { id: string; name: string } | null;
  editing: Resource | null;
  /** The environment's other resources (references point at their outputs). */
  others: Resource[];
}) {
  const [name, setName] = useState(editing?.name ?? '');
  const [version, setVersion] = useState<string>(editing?.componentVersion ?? RESOURCE_LATEST);
  const [entries, setEntries] = useState<Record<string, Entry>>(() =>
    Object.fromEntries((editing?.configurations ?? []).map((c) => [c.key, { value: String(c.value), reference: c.reference }])),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mayChange = useProjectPermission().can('change');
  const versions = useQuery({
    ...componentVersionsQuery(projectId, component?.id ?? ''),
    enabled: Boolean(projectId && component),
    select: succeededNewestFirst,
  });
  const schema = useVersionSchema(projectId, component?.id ?? null, versions.data?.length ? version : null);
  const { save } = useResourceMutations(projectId, stageId);

  const otherSchemas = useQueries({
    queries: others
      .filter((o) => o.name !== editing?.name)
      .map((o) => ({
        ...versionSchemaQuery(projectId, o.component.id, o.componentVersion),
        enabled: opened,
      })),
  });
  const outputs = useMemo(
    () =>
      others
        .filter((o) => o.name !== editing?.name)
        .flatMap((o, i) => (otherSchemas[i]?.data?.outputs ?? []).map((out) => ({ resource: o.name, output: out.name }))),
    [others, editing, otherSchemas],
  );

  const inputs = schema.data?.inputs ?? [];
  const noVersions = versions.isSuccess && versions.data.length === 0;
  const versionOptions = [
    { value: RESOURCE_LATEST, label: 'LATEST' },
    ...(versions.data ?? []).map((v) => ({ value: v.id, label: versionLabel(v.version ?? v.id) })),
  ];
  const set = (key: string, patch: Partial<Entry>) => {
    setEntries((e) => ({ ...e, [key]: { value: e[key]?.value ?? '', reference: e[key]?.reference ?? false, ...patch } }));
    setErrors((e) => ({ ...e, [inputErrorKey(key)]: '' }));
  };

  const submit = () => {
    const configurations: ResourceConfiguration[] = inputs.flatMap((input) => {
      const e = entries[input.name];
      if (!e || (e.value === '' && !e.reference)) return [];
      return [
        {
          key: input.name,
          value: e.reference ? e.value : literal(input, e.value),
          reference: e.reference,
          sensitive: Boolean(input.sensitive) && !e.reference,
        },
      ];
    });
    const body = { name: name.trim(), componentId: component!.id, componentVersion: version, configurations };
    const found: Record<string, string> = {};
    const parsed = ResourceBody.safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const input = issue.path[0] === 'configurations' ? configurations[Number(issue.path[1])]?.key : undefined;
        const key = input !== undefined ? inputErrorKey(input) : String(issue.path[0]);
        found[key] ??= issue.message;
      }
    }
    for (const input of inputs) {
      const e = entries[input.name];
      if (e?.reference && !e.value) found[inputErrorKey(input.name)] = resourceMessages.reference;
    }
    Object.assign(
      found,
      Object.fromEntries(
        Object.entries(
          checkInputValues(
            inputs,
            configurations.map((c) => ({ ...c, value: c.value === SENSITIVE_PLACEHOLDER ? 'kept' : c.value })),
          ),
        )
          .map(([k, message]) => [inputErrorKey(k), message] as const)
          .filter(([k]) => !found[k]),
      ),
    );
    toast.formErrors(Object.values(found));
    if (Object.keys(found).length) {
      setErrors(found);
      return;
    }
    save.mutate(
      { editing: editing?.name ?? null, body },
      {
        onSuccess: () => {
          toast.success(editing ? 'Successfully updated resource configuration.' : 'Successfully added resource in the environment.');
          onClose();
        },
        onError: (e) => {
          const fields = (e as { fields?: Record<string, string[]> }).fields ?? {};
          setErrors(Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v[0] ?? ''])));
          toast.apiError(e);
        },
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      centered
      radius="md"
      title={<Text fw={650}>{editing ? 'Configure resource' : 'Create resource'}</Text>}
      styles={{
        content: { height: modalHeight(), display: 'flex', flexDirection: 'column' },
        body: { flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0 },
      }}
    >
      <ScrollArea style={{ flex: 1 }} offsetScrollbars>
        <Stack gap="md" pr="xs">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              Component <b>{component?.name}</b>
            </Text>
            {component && (
              <Anchor href={`/components/${component.id}`} target="_blank" rel="noreferrer" size="sm">
                <Group gap={4}>
                  Open component <IconExternalLink size={14} />
                </Group>
              </Anchor>
            )}
          </Group>
          <Divider label="General" labelPosition="left" />
          <Group grow align="flex-start">
            <TextInput
              label="Resource name"
              withAsterisk
              value={name}
              disabled={Boolean(editing)}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setErrors((x) => ({ ...x, name: '' }));
              }}
              error={errors.name || undefined}
              data-testid="resource-name"
            />
            <Select
              label="Version"
              withAsterisk
              data={versionOptions}
              value={version}
              onChange={(x) => setVersion(x ?? RESOURCE_LATEST)}
              allowDeselect={false}
              maxDropdownHeight={300}
              comboboxProps={{ withinPortal: true }}
              error={errors.componentVersion || undefined}
              disabled={noVersions}
            />
          </Group>
          {versions.isPending ? (
            <Loader size="sm" />
          ) : noVersions ? (
            <Alert color="yellow" data-testid="no-versions">
              {NO_VERSIONS}
            </Alert>
          ) : (
            <>
              <Divider label="Configuration" labelPosition="left" />
              {schema.isError && <Alert color="red">{errorMessage(schema.error)}</Alert>}
              {schema.isPending && <Loader size="sm" />}
              {schema.isSuccess && inputs.length === 0 && (
                <Text size="sm" c="dimmed">
                  This component has no input parameters.
                </Text>
              )}
              {inputs.map((input) => (
                <InputField
                  key={input.name}
                  input={input}
                  entry={entries[input.name]}
                  error={errors[inputErrorKey(input.name)]}
                  onChange={(patch) => set(input.name, patch)}
                  suggestions={rankReferenceSuggestions(input.name, outputs)}
                />
              ))}
            </>
          )}
        </Stack>
      </ScrollArea>
      <Group justify="flex-end" pt="md">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending} disabled={!mayChange || noVersions || !component}>
          {editing ? 'Update' : 'Create'}
        </Button>
      </Group>
    </Modal>
  );
}

/** One input of the component's schema: a literal (text, choice, sensitive) or a reference to another resource's output. */
export function InputField({
  input,
  entry,
  error,
  onChange,
  suggestions,
}: {
  input: SchemaInput;
  entry: Entry | undefined;
  error?: string;
  onChange: (patch: Partial<Entry>) => void;
  suggestions: ReturnType<typeof rankReferenceSuggestions>;
}) {
  const reference = entry?.reference ?? false;
  const value = entry?.value ?? '';
  const label = (
    <Group gap={6} component="span">
      <span>{input.required ? `*${input.name}` : input.name}</span>
      {input.sensitive && (
        <Badge size="xs" variant="light" color="grape">
          sensitive
        </Badge>
      )}
    </Group>
  );
  // an empty default ('' or null: the Fargate App Runner's Domain) is no default to tell: it read 'Default:'
  const noDefault = input.default === undefined || input.default === null || input.default === '';
  const placeholder = noDefault ? undefined : `Default: ${typeof input.default === 'string' ? input.default : JSON.stringify(input.default)}`;
  let control;
  if (reference) {
    control = (
      <Select
        aria-label={input.name}
        placeholder="Select an output of another resource"
        searchable
        maxDropdownHeight={300}
        comboboxProps={{ withinPortal: true }}
        data={suggestions.map((s) => ({ value: s.value, label: s.suggested ? `${s.value} · suggested` : s.value }))}
        value={value || null}
        onChange={(x) => onChange({ value: x ?? '' })}
        error={error || undefined}
        nothingFoundMessage="No outputs of other resources"
        data-testid={`reference-${input.name}`}
      />
    );
  } else if (input.enum?.length) {
    control = (
      <Select
        aria-label={input.name}
        placeholder={placeholder}
        data={input.enum.map(String)}
        value={value || null}
        onChange={(x) => onChange({ value: x ?? '' })}
        maxDropdownHeight={300}
        comboboxProps={{ withinPortal: true }}
        error={error || undefined}
        clearable
      />
    );
  } else if (input.type === 'boolean' || input.type === 'bool') {
    control = (
      <Select
        aria-label={input.name}
        placeholder={placeholder}
        data={['true', 'false']}
        value={value || null}
        onChange={(x) => onChange({ value: x ?? '' })}
        comboboxProps={{ withinPortal: true }}
        error={error || undefined}
        clearable
      />
    );
  } else if (input.sensitive) {
    control = (
      <PasswordInput
        aria-label={input.name}
        placeholder={SENSITIVE_PLACEHOLDER}
        value={value}
        onChange={(e) => onChange({ value: e.currentTarget.value })}
        error={error || undefined}
      />
    );
  } else {
    control = (
      <TextInput
        aria-label={input.name}
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange({ value: e.currentTarget.value })}
        error={error || undefined}
        data-testid={`input-${input.name}`}
      />
    );
  }
  return (
    <Stack gap={4}>
      <Group justify="space-between" wrap="nowrap" align="flex-end">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={500}>
            {label}
          </Text>
          {input.description && (
            <Text size="xs" c="dimmed">
              {input.description}
            </Text>
          )}
        </div>
        <div data-testid={`mode-${input.name}`}>
          <SegmentedControl
            size="xs"
            value={reference ? 'reference' : 'value'}
            onChange={(m) => onChange({ reference: m === 'reference', value: '' })}
            data={[
              { value: 'value', label: 'Value' },
              { value: 'reference', label: 'Reference' },
            ]}
          />
        </div>
      </Group>
      {control}
    </Stack>
  );
}
