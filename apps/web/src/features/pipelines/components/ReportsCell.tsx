import { Badge, Button, Group, Text } from '@mantine/core';
import { IconBrandDocker, IconReportAnalytics } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { BuildStep } from '@gantry/contracts';
import { buildReports } from '../lib/reports';

/**
 * A build's Reports cell, in the pipelines list (its latest build) and the Builds tab: 'View' (to the build's page)
 * with its artifacts, pushed images and scans' summary, or '—' when it has none (buildReports), or no build.
 */
export function ReportsCell({
  build,
  to,
  label,
}: {
  build: { steps: Pick<BuildStep, 'artifacts' | 'reports'>[] } | null | undefined;
  to: string;
  label?: string;
}) {
  const reports = build ? buildReports(build.steps) : null;
  if (!reports) {
    return (
      <Text size="sm" c="dimmed" data-testid="no-reports">
        —
      </Text>
    );
  }
  const { artifacts, images, issues } = reports;
  return (
    <Group gap={6} wrap="nowrap">
      <Button component={Link} to={to} variant="subtle" size="compact-sm" leftSection={<IconReportAnalytics size={15} />} aria-label={label}>
        View
      </Button>
      {artifacts > 0 && (
        <Badge variant="outline" color="gray" radius="sm" size="sm">
          {artifacts === 1 ? '1 artifact' : `${artifacts} artifacts`}
        </Badge>
      )}
      {images > 0 && (
        <Badge variant="outline" color="indigo" radius="sm" size="sm" leftSection={<IconBrandDocker size={12} />}>
          {images === 1 ? '1 image' : `${images} images`}
        </Badge>
      )}
      {issues && (
        <Badge variant="light" color={issues.tone === 'ok' ? 'teal' : 'orange'} radius="sm" size="sm">
          {issues.text}
        </Badge>
      )}
    </Group>
  );
}
