import { ActionIcon, Card, Group, ScrollArea, Stack, Text, ThemeIcon, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconBrandDocker,
  IconCloudUpload,
  IconGitBranch,
  IconPlayerPlay,
  IconPlus,
  IconRocket,
  IconServer2,
  IconStack2,
  IconTestPipe,
} from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { searchStepCatalogue, type StepCatalogueEntry } from '@gantry/contracts';
import { SearchInput } from '../../../ui/SearchInput';

const icons: Record<string, ReactNode> = {
  'git-clone': <IconGitBranch size={18} />,
  'docker-push': <IconBrandDocker size={18} />,
  'deploy-kubernetes': <IconServer2 size={18} />,
  'cfn-component': <IconCloudUpload size={18} />,
  'deploy-environment': <IconRocket size={18} />,
  'trigger-pipeline': <IconPlayerPlay size={18} />,
  'terraform-build': <IconStack2 size={18} />,
  'trigger-reflect-test': <IconTestPipe size={18} />,
};

/** The steps catalogue beside the editor: search by description (spec §5), click to insert the snippet at the cursor. */
export function StepCatalogue({ disabled, onInsert }: { disabled: boolean; onInsert: (entry: StepCatalogueEntry) => void }) {
  const [search, setSearch] = useState('');
  const entries = searchStepCatalogue(search);
  return (
    <Card withBorder radius="md" padding="md" h="100%" data-testid="step-catalogue">
      <Text fw={650} size="sm">
        Steps catalogue
      </Text>
      <Text size="xs" c="dimmed" mb="sm">
        {disabled ? 'The spec is read-only' : 'Insert a step at the cursor'}
      </Text>
      <SearchInput value={search} onChange={setSearch} placeholder="Search steps..." label="Search steps" w="100%" />
      <ScrollArea.Autosize mah={560} mt="sm" offsetScrollbars>
        <Stack gap={6}>
          {entries.length === 0 && (
            <Text size="sm" c="dimmed" ta="center" py="md">
              No steps match your search
            </Text>
          )}
          {entries.map((e) => (
            <UnstyledButton
              key={e.id}
              disabled={disabled}
              onClick={() => onInsert(e)}
              aria-label={`Insert ${e.id} step`}
              style={{
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 8,
                padding: '8px 10px',
                opacity: disabled ? 0.6 : 1,
                cursor: disabled ? 'not-allowed' : 'pointer',
              }}
              className="gantry-catalogue-item"
            >
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size={32} radius="md">
                  {icons[e.id] ?? <IconPlus size={18} />}
                </ThemeIcon>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={600}>
                    {e.title}
                  </Text>
                  {/* whole: the search filters by this text (spec §5), and cut to two lines a match could be out of sight */}
                  <Text size="xs" c="dimmed">
                    {e.description}
                  </Text>
                </div>
                {!disabled && (
                  <Tooltip label="Insert" withArrow>
                    <ActionIcon component="span" variant="subtle" size="sm" aria-hidden>
                      <IconPlus size={14} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
            </UnstyledButton>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Card>
  );
}
