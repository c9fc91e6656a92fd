import { Badge, Button, Group, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconBraces, IconDownload, IconFileZip, IconReportAnalytics } from '@tabler/icons-react';
import type { Artifact } from '@gantry/contracts';
import { toast } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { useDownloadArtifact } from '../api/download-artifact';
import { formatBytes } from '../lib/format';

const kindIcon = { files: <IconFileZip size={16} />, json: <IconBraces size={16} />, reports: <IconReportAnalytics size={16} /> } as const;

/** The artifacts of a step: kind, name, files count, size, Download. */
export function StepArtifacts({
  projectId,
  pipelineId,
  buildId,
  artifacts,
}: {
  projectId: string;
  pipelineId: string;
  buildId: string;
  artifacts: Artifact[];
}) {
  const download = useDownloadArtifact(projectId, pipelineId, buildId);
  if (!artifacts.length) {
    return (
      <EmptyState
        compact
        title="No artifacts"
        description="This step has not stored any artifact. Declare them under artifacts in the step of your pipeline spec."
      />
    );
  }
  return (
    <Stack p="md" gap="sm" data-testid="step-artifacts">
      <Table verticalSpacing="sm" highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            {['Kind', 'Name', 'Files', 'Size', ''].map((h) => (
              <Table.Th key={h}>
                <Text size="xs" fw={600} tt="uppercase" c="dimmed">
                  {h}
                </Text>
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {artifacts.map((a) => (
            <Table.Tr key={a.id} data-testid="artifact-row">
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <ThemeIcon size={24} variant="light" radius="sm" color={a.kind === 'json' ? 'grape' : 'indigo'}>
                    {kindIcon[a.kind]}
                  </ThemeIcon>
                  <Badge variant="outline" color="gray" radius="sm" size="sm">
                    {a.kind}
                  </Badge>
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace" fw={500}>
                  {a.name}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{a.files}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatBytes(a.size)}
                </Text>
              </Table.Td>
              <Table.Td ta="right">
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconDownload size={14} />}
                  loading={download.isPending && download.variables?.id === a.id}
                  onClick={() => download.mutate(a, { onError: (e) => toast.apiError(e) })}
                  aria-label={`Download ${a.name}`}
                >
                  Download
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
