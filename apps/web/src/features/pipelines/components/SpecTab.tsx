import { Alert, Badge, Box, Button, Card, Grid, Group, List, Loader, Skeleton, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconDeviceFloppy, IconGitBranch, IconInfoCircle, IconLock, IconPencil } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { SPEC_VALIDATION_DEBOUNCE_MS, validatePipelineSpec, type StepCatalogueEntry } from '@gantry/contracts';
import { isApiError } from '../../../api/errors';
import { useProjectPermission } from '../../../api/permissions';
import { toast } from '../../../api/toast';
import { usePipelineSpec } from '../api/get-pipeline-spec';
import { useUpdatePipelineSpec } from '../api/update-pipeline-spec';
import { StepCatalogue } from './StepCatalogue';
import type { YamlEditorHandle } from './YamlEditor';

// CodeMirror loads with the spec tab only.
const YamlEditor = lazy(() => import('./YamlEditor').then((m) => ({ default: m.YamlEditor })));

export const SPEC_SAVED = 'You have succesfully updated your pipeline specification';
export const SPEC_SAVE_FAILED = 'Something went wrong while updating your pipeline specification';

/**
 * Where a spec that is not in the repository comes from: no spec file on the branch shown, so builds use the one kept
 * in Gantry (a built branch that has its own file uses that file instead); before the first save that is the template.
 */
export function keptInGantryNote(specFile: string, branch: string | undefined, isDefault: boolean) {
  const where = branch ? `on branch ${branch}` : 'in the repository';
  return isDefault
    ? `There is no ${specFile} ${where}. This is Gantry's default spec, not yet saved: save it to keep it in Gantry, or commit a ${specFile} to the repository. A built branch that has its own ${specFile} builds with that file.`
    : `There is no ${specFile} ${where}, so builds use this spec, kept in Gantry. A built branch that has its own ${specFile} builds with that file.`;
}

/**
 * The spec tab (spec §2, §4): a YAML editor that starts read-only, then READ-ONLY or EDITABLE by
 * `sourceCode`; validation 2 s after the last edit; Save disabled while validating, with errors,
 * or read-only; the steps catalogue inserts snippets at the cursor.
 */
export function SpecTab({ projectId, pipelineId, workDir }: { projectId: string; pipelineId: string; workDir: string }) {
  const spec = usePipelineSpec(projectId, pipelineId);
  const save = useUpdatePipelineSpec(projectId, pipelineId);
  const editor = useRef<YamlEditorHandle>(null);
  const [text, setText] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [validating, setValidating] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Load the document once the spec answers (and again only if the user has not edited it).
  useEffect(() => {
    if (!spec.data) return;
    if (text === null || text === saved) {
      if (spec.data.gantryYaml !== text) editor.current?.setValue(spec.data.gantryYaml);
      setText(spec.data.gantryYaml);
      setSaved(spec.data.gantryYaml);
      setErrors(validatePipelineSpec(spec.data.gantryYaml).errors);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [spec.data]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useEffect(() => {
    if (spec.error) toast.apiError(spec.error);
  }, [spec.error]);

  const loaded = Boolean(spec.data) && text !== null;
  // Read-only until the spec is known, then by its sourceCode flag (kept in the repository → read-only).
  const permission = useProjectPermission();
  const mayChange = permission.can('change');
  const readOnly = !loaded || spec.data!.sourceCode || !mayChange;
  const dirty = loaded && text !== saved;

  const onChange = (next: string) => {
    setText(next);
    setValidating(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setErrors(validatePipelineSpec(next).errors);
      setValidating(false);
    }, SPEC_VALIDATION_DEBOUNCE_MS);
  };

  const insert = (entry: StepCatalogueEntry) => editor.current?.insertAtCursor(entry.snippet);

  const onSave = () => {
    if (text === null) return;
    save.mutate(text, {
      onSuccess: (answer) => {
        setSaved(answer.gantryYaml);
        toast.success(SPEC_SAVED);
      },
      onError: (e) => {
        const fieldErrors = isApiError(e) ? e.fields?.gantryYaml : undefined;
        if (fieldErrors?.length) setErrors(fieldErrors);
        toast.error(SPEC_SAVE_FAILED);
      },
    });
  };

  const saveDisabled = readOnly || validating || errors.length > 0;
  // the file the spec was read from (gantry.yaml or the original product's .microtica/microtica.yaml); Gantry keeps its own as gantry.yaml
  const specFile = spec.data?.specFile ?? `${workDir && workDir !== '/' ? workDir.replace(/^\/|\/$/g, '') + '/' : ''}gantry.yaml`;

  return (
    <Grid gutter="md" data-testid="spec-tab">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Card withBorder radius="md" padding={0}>
          <Group justify="space-between" px="md" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            <Group gap="sm">
              <Text ff="monospace" size="sm" fw={600} data-testid="spec-file">
                {!loaded || spec.data!.sourceCode ? specFile : 'Kept in Gantry'}
              </Text>
              {loaded && spec.data!.sourceCode && spec.data!.branch && (
                <Badge color="gray" variant="outline" radius="sm" leftSection={<IconGitBranch size={12} />} data-testid="spec-branch">
                  {spec.data!.branch}
                </Badge>
              )}
              {!loaded ? (
                <Skeleton height={20} width={80} radius="sm" />
              ) : readOnly ? (
                <Tooltip label={mayChange ? 'This spec is kept in the repository: change it there' : permission.refusal('change')} withArrow>
                  <Badge color="gray" variant="light" radius="sm" leftSection={<IconLock size={12} />} data-testid="spec-mode">
                    READ-ONLY
                  </Badge>
                </Tooltip>
              ) : (
                <Badge color="teal" variant="light" radius="sm" leftSection={<IconPencil size={12} />} data-testid="spec-mode">
                  EDITABLE
                </Badge>
              )}
              {dirty && (
                <Text size="xs" c="dimmed">
                  Unsaved changes
                </Text>
              )}
            </Group>
            <Group gap="sm">
              {loaded && !readOnly && (
                <Group gap={6} data-testid="spec-validation">
                  {validating ? (
                    <>
                      <Loader size={14} />
                      <Text size="xs" c="dimmed">
                        Validating…
                      </Text>
                    </>
                  ) : errors.length ? (
                    <>
                      <IconAlertTriangle size={16} color="var(--mantine-color-red-6)" />
                      <Text size="xs" c="red">
                        {errors.length === 1 ? '1 error' : `${errors.length} errors`}
                      </Text>
                    </>
                  ) : (
                    <>
                      <IconCircleCheck size={16} color="var(--mantine-color-teal-6)" />
                      <Text size="xs" c="teal">
                        Valid spec
                      </Text>
                    </>
                  )}
                </Group>
              )}
              <Button size="xs" leftSection={<IconDeviceFloppy size={14} />} onClick={onSave} disabled={saveDisabled} loading={save.isPending}>
                Save
              </Button>
            </Group>
          </Group>
          {loaded && !spec.data!.sourceCode && (
            <Alert color="blue" radius={0} icon={<IconInfoCircle size={18} />} data-testid="spec-source">
              {keptInGantryNote(specFile, spec.data!.branch, spec.data!.isDefault ?? false)}
            </Alert>
          )}
          <Box pos="relative" mih={480}>
            {!loaded && (
              <Box p="md" pos="absolute" inset={0} style={{ zIndex: 1, background: 'var(--mantine-color-body)' }}>
                {[70, 40, 55, 30, 65, 45, 35].map((w, i) => (
                  <Skeleton key={i} height={12} width={`${w}%`} mb={12} radius="sm" />
                ))}
              </Box>
            )}
            <Suspense fallback={null}>
              <YamlEditor ref={editor} initialValue={spec.data?.gantryYaml ?? ''} readOnly={readOnly} onChange={onChange} />
            </Suspense>
          </Box>
          {loaded && errors.length > 0 && (
            <Alert color="red" radius={0} icon={<IconAlertTriangle size={18} />} title="The pipeline spec is not valid" data-testid="spec-errors">
              <List size="sm" spacing={2}>
                {errors.map((e, i) => (
                  <List.Item key={i}>{e}</List.Item>
                ))}
              </List>
            </Alert>
          )}
        </Card>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <StepCatalogue disabled={readOnly} onInsert={insert} />
      </Grid.Col>
    </Grid>
  );
}
