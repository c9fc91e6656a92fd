import { ActionIcon, Box, Group, Loader, Text, Tooltip } from '@mantine/core';
import { IconArrowDown, IconCopy } from '@tabler/icons-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { isBuildActive } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { useStepLogs } from '../hooks/use-step-logs';
import classes from './StepPanel.module.css';

export const PREPARING_LOGS = 'Preparing logs...';
const MAX_RENDERED_LINES = 10_000;

/** The live log of a step: monospace, line numbers, follows the end unless the user scrolls up. */
export function StepLogs({
  projectId,
  pipelineId,
  buildId,
  step,
  stepStatus,
  buildStatus,
}: {
  projectId: string;
  pipelineId: string;
  buildId: string;
  step: string;
  stepStatus: string | null;
  buildStatus: string;
}) {
  const logs = useStepLogs({ projectId, pipelineId, buildId, step });
  const box = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const finished = !isBuildActive(buildStatus) || (stepStatus !== null && !isBuildActive(stepStatus));

  useLayoutEffect(() => {
    if (follow && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [logs.lines, follow]);

  // Back to following when a new step opens.
  useEffect(() => setFollow(true), [step]);

  const onScroll = () => {
    const el = box.current;
    if (!el) return;
    setFollow(el.scrollHeight - el.scrollTop - el.clientHeight < 24);
  };

  const shown = logs.lines.length > MAX_RENDERED_LINES ? logs.lines.slice(-MAX_RENDERED_LINES) : logs.lines;
  const offset = logs.lines.length - shown.length;
  const empty = logs.count === 0;

  return (
    <Box style={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0, position: 'relative' }}>
      <Group justify="space-between" px="md" py={6} style={{ background: '#111827', borderBottom: '1px solid #1f2937' }}>
        <Group gap={6}>
          {!finished && !empty && <Loader size={10} color="yellow" />}
          <Text size="xs" c="#94a3b8">
            {empty
              ? logs.error
                ? logs.error
                : finished && logs.subscribed
                  ? 'No logs for this step'
                  : 'Waiting for output'
              : `${logs.lines.length} lines${!finished ? ' · live' : ''}`}
          </Text>
        </Group>
        <Tooltip label="Copy logs" withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            aria-label="Copy logs"
            disabled={empty}
            onClick={() => {
              void navigator.clipboard?.writeText(logs.lines.join('\n'));
              toast.success('Copied to clipboard!');
            }}
          >
            <IconCopy size={14} />
          </ActionIcon>
        </Tooltip>
      </Group>
      <div ref={box} className={classes.log} onScroll={onScroll} data-testid="step-logs" role="log" aria-live="polite">
        {empty ? (
          <div className={classes.preparing}>{finished && logs.subscribed ? 'No logs available for this step.' : PREPARING_LOGS}</div>
        ) : (
          <>
            {offset > 0 && <div className={classes.preparing}>… {offset} earlier lines not shown (copy the logs to get them all)</div>}
            {shown.map((line, i) => (
              <div key={offset + i} className={classes.line}>
                <span className={classes.lineNo}>{offset + i + 1}</span>
                <span>{line || ' '}</span>
              </div>
            ))}
          </>
        )}
      </div>
      {!follow && !empty && (
        <ActionIcon
          variant="filled"
          radius="xl"
          size="lg"
          aria-label="Follow logs"
          onClick={() => setFollow(true)}
          style={{ position: 'absolute', right: 20, bottom: 20, boxShadow: '0 4px 12px rgba(0,0,0,0.3)' }}
        >
          <IconArrowDown size={18} />
        </ActionIcon>
      )}
    </Box>
  );
}
