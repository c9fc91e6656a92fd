import { Group, Loader, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import {
  IconBan,
  IconBrandDocker,
  IconCircleCheckFilled,
  IconCircleDashed,
  IconPlayerSkipForward,
  IconCircleXFilled,
  IconClock,
  IconShieldCheck,
  IconShieldExclamation,
  IconShieldX,
} from '@tabler/icons-react';
import type { BuildStep } from '@gantry/contracts';
import { elapsedMs, formatMinSec } from '../lib/format';
import { CopyToClipboard } from '../../../ui/CopyToClipboard';
import { pushedImageOf, referenceParts, shortDigest, stepScanBadge, type PushedImage } from '../lib/scan';
import { buildStatusDisplay, skippedReason } from '../lib/status';

export function StepStatusIcon({ status, size = 18 }: { status: string | null; size?: number }) {
  switch (status) {
    case 'SUCCEEDED':
      return <IconCircleCheckFilled size={size} color="var(--mantine-color-teal-6)" aria-label="Succeeded" />;
    case 'FAILED':
      return <IconCircleXFilled size={size} color="var(--mantine-color-red-6)" aria-label="Failed" />;
    case 'ABORTED':
      return <IconBan size={size} color="var(--mantine-color-gray-6)" aria-label="Aborted" />;
    case 'RUNNING':
    case 'SCHEDULING':
      return <Loader size={size - 4} color="yellow" aria-label="Running" />;
    case 'QUEUED':
      return <IconClock size={size} color="var(--mantine-color-blue-5)" aria-label="Queued" />;
    default:
      return <IconCircleDashed size={size} color="var(--mantine-color-gray-5)" aria-label="Pending" />;
  }
}

/** The image a docker-push step pushed (`reports.image`): registry/repository:tag and digest, 7 characters (spec delivery §9). */
function PushedImageLine({ image }: { image: PushedImage }) {
  // two lines, so a long registry host never hides the tag: `host/` over `repository:tag`
  const ref = referenceParts(image);
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" mt={6} pt={6} style={{ borderTop: '1px dashed var(--mantine-color-gray-3)' }} data-testid="step-image">
      <ThemeIcon size={16} variant="transparent" color="indigo">
        <IconBrandDocker size={14} />
      </ThemeIcon>
      <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
        <div title={image.reference} data-testid="step-image-reference" style={{ minWidth: 0 }}>
          {ref.host && (
            <Text size="xs" c="dimmed" ff="monospace" truncate="end">
              {ref.host}/
            </Text>
          )}
          <Text size="xs" fw={600} ff="monospace" truncate="end">
            {ref.name}
          </Text>
        </div>
        {image.digest && (
          <Text size="xs" c="dimmed" ff="monospace" truncate="end" title={image.digest} data-testid="step-image-digest">
            {shortDigest(image.digest)}
            {image.registry ? ` · ${image.registry}` : ''}
          </Text>
        )}
      </Stack>
      <CopyToClipboard value={image.reference} label="Copy image reference" />
    </Group>
  );
}

/**
 * A step card (spec §2): its title (the spec's `title`, else its name; the name under it), duration, the
 * container-scan summary only when a scan ran (§4), SKIPPED with the reason for a skipped deploy, and the
 * image a docker-push step pushed with a copy button; the card opens the step panel.
 */
export function StepCard({ step, selected, now, onOpen }: { step: BuildStep; selected: boolean; now: number; onOpen: () => void }) {
  const summary = stepScanBadge(step);
  const image = pushedImageOf(step);
  const skipped = skippedReason(step);
  const color = skipped ? 'gray' : buildStatusDisplay(step.status).color;
  const ms = elapsedMs(step.startDate, step.stopDate, now);
  const ShieldIcon = summary?.tone === 'ok' ? IconShieldCheck : summary?.tone === 'failed' ? IconShieldX : IconShieldExclamation;
  return (
    <div
      data-testid="step-card"
      data-step={step.name}
      style={{
        background: 'var(--mantine-color-body)',
        border: `1px solid ${selected ? 'var(--mantine-color-indigo-5)' : 'var(--mantine-color-gray-3)'}`,
        borderLeft: `4px solid var(--mantine-color-${color}-${color === 'gray' ? 4 : 6})`,
        borderRadius: 8,
        padding: '10px 12px',
        boxShadow: selected ? '0 0 0 3px var(--mantine-color-indigo-1)' : '0 1px 2px rgba(0,0,0,0.04)',
        transition: 'box-shadow 120ms ease, border-color 120ms ease',
      }}
    >
      <UnstyledButton onClick={onOpen} aria-label={`Step ${step.name}`} aria-pressed={selected} style={{ display: 'block', width: '100%' }}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={8} wrap="nowrap" style={{ minWidth: 0 }}>
            {skipped ? <IconPlayerSkipForward size={18} color="var(--mantine-color-gray-6)" aria-label="Skipped" /> : <StepStatusIcon status={step.status} />}
            <Text size="sm" fw={600} truncate="end" data-testid="step-name" title={step.title ? step.name : undefined}>
              {step.title ?? step.name}
            </Text>
          </Group>
          <Text size="xs" c="dimmed" ff="monospace" style={{ whiteSpace: 'nowrap' }} data-testid="step-duration">
            {ms === null ? '—' : formatMinSec(ms)}
          </Text>
        </Group>
        <Group justify="space-between" mt={6} wrap="nowrap" gap="xs">
          <Text size="xs" c="dimmed" truncate="end" data-testid="step-type" title={skipped ?? undefined}>
            {step.title ? `${step.name} · ` : ''}
            {step.type === 'build' ? 'build' : step.type}
            {skipped ? ' · skipped' : ''}
          </Text>
          {summary && (
            <Group gap={4} wrap="nowrap">
              <ThemeIcon size={16} variant="transparent" color={summary.tone === 'ok' ? 'teal' : summary.tone === 'failed' ? 'red' : 'orange'}>
                <ShieldIcon size={14} />
              </ThemeIcon>
              <Text
                size="xs"
                c={summary.tone === 'ok' ? 'dimmed' : summary.tone === 'failed' ? 'red' : 'orange'}
                data-testid="step-scan"
                style={{ whiteSpace: 'nowrap' }}
              >
                {summary.text}
              </Text>
            </Group>
          )}
        </Group>
      </UnstyledButton>
      {image && <PushedImageLine image={image} />}
    </div>
  );
}
