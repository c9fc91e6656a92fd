import { ActionIcon, Badge, Group, Tabs, Text, Tooltip } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconFileZip, IconTerminal2, IconX } from '@tabler/icons-react';
import { useCallback, useEffect, useState, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import type { Build, BuildStep } from '@gantry/contracts';
import { elapsedMs, formatMinSec } from '../lib/format';
import { StatusBadge } from '../../../ui/StatusBadge';
import { buildStatusDisplay, skippedReason } from '../lib/status';
import { StepArtifacts } from './StepArtifacts';
import { StepLogs } from './StepLogs';
import classes from './StepPanel.module.css';

const MIN_WIDTH = 380;
const clampWidth = (w: number) => Math.round(Math.min(Math.max(w, MIN_WIDTH), Math.max(MIN_WIDTH, window.innerWidth * 0.92)));

/** The side panel of a step (spec §2): resizable from its left edge, closable, tabs Logs and Artifacts. */
export function StepPanel({
  projectId,
  pipelineId,
  build,
  step,
  now,
  onClose,
  actions,
}: {
  projectId: string;
  pipelineId: string;
  build: Build;
  step: BuildStep;
  now: number;
  onClose: () => void;
  /** The build's own actions (its Stop Execution), beside Close: the panel lies over the build's header. */
  actions?: ReactNode;
}) {
  const [width, setWidth] = useLocalStorage({ key: 'gantry.step-panel-width', defaultValue: 720 });
  const [dragging, setDragging] = useState(false);
  const [tab, setTab] = useState<string | null>('logs');

  const startDrag = useCallback(
    (e: ReactMouseEvent) => {
      e.preventDefault();
      setDragging(true);
      const move = (ev: MouseEvent) => setWidth(clampWidth(window.innerWidth - ev.clientX));
      const up = () => {
        setDragging(false);
        window.removeEventListener('mousemove', move);
        window.removeEventListener('mouseup', up);
      };
      window.addEventListener('mousemove', move);
      window.addEventListener('mouseup', up);
    },
    [setWidth],
  );

  // Escape closes the panel.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <aside
      className={`${classes.panel} ${dragging ? classes.dragging : ''}`}
      style={{ width: clampWidth(width) }}
      aria-label={`Step ${step.name}`}
      data-testid="step-panel"
    >
      <div
        className={classes.handle}
        onMouseDown={startDrag}
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize panel"
        tabIndex={0}
        onKeyDown={(e) => {
          if (e.key === 'ArrowLeft') setWidth(clampWidth(width + 40));
          if (e.key === 'ArrowRight') setWidth(clampWidth(width - 40));
        }}
      />
      <Group justify="space-between" px="md" py="sm" wrap="nowrap" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          <Text fw={650} truncate="end" data-testid="step-panel-title" title={step.title ? step.name : undefined}>
            {step.title ?? step.name}
          </Text>
          {skippedReason(step) ? (
            <StatusBadge status="SKIPPED" color="gray" size="xs" />
          ) : (
            <StatusBadge status={step.status ?? 'PENDING'} color={buildStatusDisplay(step.status).color} size="xs" />
          )}
          {step.stage && (
            <Text size="xs" c="dimmed">
              stage {step.stage}
            </Text>
          )}
          <Text size="xs" c="dimmed" ff="monospace">
            {formatMinSec(elapsedMs(step.startDate, step.stopDate, now))}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap">
          {actions}
          <Tooltip label="Close" withArrow>
            <ActionIcon variant="subtle" color="gray" onClick={onClose} aria-label="Close panel">
              <IconX size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
      {skippedReason(step) && (
        <Text size="xs" c="dimmed" px="md" py={6} style={{ background: 'var(--mantine-color-gray-0)' }} data-testid="step-skipped">
          Skipped: {skippedReason(step)}
        </Text>
      )}
      {step.errorMessage && (
        <Text size="xs" c="red" px="md" py={6} style={{ background: 'var(--mantine-color-red-0)' }}>
          {step.errorMessage}
        </Text>
      )}
      <Tabs value={tab} onChange={setTab} style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }} keepMounted={false}>
        <Tabs.List px="sm">
          <Tabs.Tab value="logs" leftSection={<IconTerminal2 size={15} />}>
            Logs
          </Tabs.Tab>
          <Tabs.Tab
            value="artifacts"
            leftSection={<IconFileZip size={15} />}
            rightSection={
              step.artifacts.length ? (
                <Badge size="xs" variant="light" radius="sm">
                  {step.artifacts.length}
                </Badge>
              ) : undefined
            }
          >
            Artifacts
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="logs" style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}>
          <StepLogs projectId={projectId} pipelineId={pipelineId} buildId={build.id} step={step.name} stepStatus={step.status} buildStatus={build.status} />
        </Tabs.Panel>
        <Tabs.Panel value="artifacts" style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
          <StepArtifacts projectId={projectId} pipelineId={pipelineId} buildId={build.id} artifacts={step.artifacts} />
        </Tabs.Panel>
      </Tabs>
    </aside>
  );
}
