import { Group, Text } from '@mantine/core';

/** The Gantry mark, optionally with the word. */
export function Logo({ size = 32, withText = false, inverted = false }: { size?: number; withText?: boolean; inverted?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden>
        <rect width="32" height="32" rx="8" fill={inverted ? '#fff' : 'var(--mantine-color-indigo-6)'} />
        <path d="M8 23V11h16v3H11v2h10v3H11v4z" fill={inverted ? 'var(--mantine-color-indigo-7)' : '#fff'} />
      </svg>
      {withText && (
        <Text fw={700} fz={size * 0.62} c={inverted ? 'white' : undefined} style={{ letterSpacing: -0.3 }}>
          Gantry
        </Text>
      )}
    </Group>
  );
}
