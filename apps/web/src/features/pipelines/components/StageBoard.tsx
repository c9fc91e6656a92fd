import { Badge, Box, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Fragment } from 'react';
import type { Build, BuildStep } from '@gantry/contracts';
import { StepCard, StepStatusIcon } from './StepCard';

function stageStatus(steps: BuildStep[]): string | null {
  if (steps.some((s) => s.status === 'FAILED')) return 'FAILED';
  if (steps.some((s) => s.status === 'RUNNING' || s.status === 'SCHEDULING')) return 'RUNNING';
  if (steps.length && steps.every((s) => s.status === 'SUCCEEDED')) return 'SUCCEEDED';
  if (steps.some((s) => s.status === 'ABORTED')) return 'ABORTED';
  return null;
}

/** Stages as columns of step cards; with no stages, one column of steps (spec §2). */
export function StageBoard({ build, selected, now, onOpen }: { build: Build; selected: string | null; now: number; onOpen: (step: string) => void }) {
  const columns: { name: string; steps: BuildStep[] }[] = build.stages.length
    ? build.stages.map((st) => ({ name: st.name, steps: build.steps.filter((s) => s.stage === st.name) }))
    : [{ name: 'Steps', steps: build.steps }];
  // Steps whose stage is not listed (should not happen) still show.
  if (build.stages.length) {
    const orphans = build.steps.filter((s) => !build.stages.some((st) => st.name === s.stage));
    if (orphans.length) columns.push({ name: 'Other', steps: orphans });
  }

  return (
    <ScrollArea type="auto" offsetScrollbars data-testid="stage-board">
      <Group align="stretch" wrap="nowrap" gap={0} pb="xs">
        {columns.map((col, i) => (
          <Fragment key={col.name}>
            {i > 0 && (
              <Box style={{ display: 'flex', alignItems: 'center', padding: '0 6px' }}>
                <IconChevronRight size={18} color="var(--mantine-color-gray-5)" />
              </Box>
            )}
            <Stack
              gap="xs"
              w={build.stages.length ? 280 : 420}
              miw={build.stages.length ? 280 : 420}
              p="sm"
              data-testid="stage-column"
              data-stage={col.name}
              style={{ background: 'var(--mantine-color-gray-0)', border: '1px solid var(--mantine-color-gray-2)', borderRadius: 10 }}
            >
              <Group justify="space-between" px={2} wrap="nowrap">
                <Group gap={6} wrap="nowrap">
                  {build.stages.length > 0 && <StepStatusIcon status={stageStatus(col.steps)} size={16} />}
                  <Text size="xs" fw={700} tt="uppercase" c="dimmed" style={{ letterSpacing: 0.5 }} data-testid="stage-name">
                    {col.name}
                  </Text>
                </Group>
                <Badge size="xs" variant="light" color="gray" radius="sm">
                  {col.steps.length}
                </Badge>
              </Group>
              {col.steps.length === 0 && (
                <Text size="xs" c="dimmed" ta="center" py="sm">
                  No steps
                </Text>
              )}
              {col.steps.map((s) => (
                <StepCard key={s.name} step={s} now={now} selected={selected === s.name} onOpen={() => onOpen(s.name)} />
              ))}
            </Stack>
          </Fragment>
        ))}
      </Group>
    </ScrollArea>
  );
}
