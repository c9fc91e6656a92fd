import { Badge, Group } from '@mantine/core';
import type { Component } from '@gantry/contracts';
import { IAC_LABELS, PROVIDER_SHORT, providerLabel, typeLabel } from '../lib/labels';

/** Type, cloud provider and IaC tool of a component as small badges. */
export function ComponentBadges({
  component,
  size = 'sm',
}: {
  component: Pick<Component, 'type' | 'cloudProvider' | 'infrastructureAsCodeTool'>;
  size?: 'xs' | 'sm' | 'md';
}) {
  return (
    <Group gap={6} wrap="wrap">
      <Badge variant="light" color="indigo" radius="sm" size={size} data-testid="component-type">
        {typeLabel(component.type)}
      </Badge>
      <Badge variant="light" color="gray" radius="sm" size={size} title={providerLabel(component.cloudProvider)} data-testid="component-provider">
        {PROVIDER_SHORT[component.cloudProvider] ?? component.cloudProvider}
      </Badge>
      <Badge
        variant="outline"
        color={component.infrastructureAsCodeTool === 'terraform' ? 'violet' : 'orange'}
        radius="sm"
        size={size}
        data-testid="component-iac"
      >
        {IAC_LABELS[component.infrastructureAsCodeTool] ?? component.infrastructureAsCodeTool}
      </Badge>
    </Group>
  );
}
