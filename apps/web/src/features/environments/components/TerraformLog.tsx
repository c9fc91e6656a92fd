import { Code, ScrollArea, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useDeploymentLogs } from '../hooks/use-deployment-logs';

/** The live terraform log of a deployment; "Preparing logs..." until lines arrive (spec §2). */
export function TerraformLog({ projectId, stageId, deploymentId, filter }: { projectId: string; stageId: string; deploymentId: string; filter?: string }) {
  const { lines, error } = useDeploymentLogs({ projectId, stageId, deploymentId });
  const viewport = useRef<HTMLDivElement>(null);
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [lines.length]);
  const shown = filter ? lines.filter((l) => l.toLowerCase().includes(filter.toLowerCase())) : lines;
  return (
    <ScrollArea h={520} viewportRef={viewport} bg="dark.8" style={{ borderRadius: 8 }} data-testid="terraform-log">
      <Code block bg="transparent" c="gray.2" fz={12.5} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', lineHeight: 1.55 }}>
        {error ? (
          <Text c="red.4" size="sm">
            {error}
          </Text>
        ) : lines.length ? (
          shown.join('\n')
        ) : (
          'Preparing logs...'
        )}
      </Code>
    </ScrollArea>
  );
}
