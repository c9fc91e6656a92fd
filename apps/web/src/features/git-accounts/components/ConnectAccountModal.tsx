import { Button, Card, Group, Modal, Skeleton, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { useState } from 'react';
import type { GitProvider } from '@gantry/contracts';
import { useGitProviders } from '../api/get-git-providers';
import { rememberConnectOrigin, stateOf } from '../connect-origin';
import { authorizeUrlWithRedirect, PROVIDERS } from './providers';

export const NOT_CONFIGURED_HINT = 'This provider is not configured on this Gantry server. Ask your administrator to set its OAuth client.';

/** 'Select Account Type': Github, Bitbucket, GitLab; choosing one sends the whole page to the provider (spec §2.9). */
export function ConnectAccountModal({ projectId, opened, onClose }: { projectId: string; opened: boolean; onClose: () => void }) {
  const providers = useGitProviders(opened);
  const [leaving, setLeaving] = useState<GitProvider | null>(null);

  const connect = (type: GitProvider) => {
    const link = providers.data?.[type];
    if (!link) return;
    setLeaving(type);
    // the callback names no project: the account joins this one even if the login shows in place meanwhile
    rememberConnectOrigin(stateOf(link.authorizeUrl), type, projectId);
    window.location.assign(authorizeUrlWithRedirect(link.authorizeUrl, type));
  };

  return (
    <Modal opened={opened} onClose={onClose} title={<Text fw={600}>Select Account Type</Text>} centered radius="md" size="lg">
      <Stack gap="sm">
        {PROVIDERS.map((p) => {
          const configured = Boolean(providers.data?.[p.type]);
          const button = (
            <Button
              style={{ flexShrink: 0 }}
              variant={configured ? 'filled' : 'default'}
              color={p.color}
              disabled={!configured || (leaving !== null && leaving !== p.type)}
              loading={leaving === p.type}
              onClick={() => connect(p.type)}
            >
              {`Connect ${p.label} Account`}
            </Button>
          );
          return (
            <Card key={p.type} withBorder radius="md" padding="md" shadow="none" data-testid={`git-provider-${p.type}`}>
              <Group justify="space-between" wrap="nowrap">
                <Group gap="md" wrap="nowrap" style={{ flex: 1, minWidth: 0 }}>
                  <ThemeIcon size={44} radius="md" variant="light" color={p.color}>
                    {p.icon(26)}
                  </ThemeIcon>
                  <div>
                    <Text fw={600}>{p.label}</Text>
                    <Text size="xs" c="dimmed">
                      {providers.isPending ? (
                        <Skeleton component="span" height={10} width={180} />
                      ) : configured ? (
                        p.description
                      ) : (
                        'Not configured on this server'
                      )}
                    </Text>
                  </div>
                </Group>
                {providers.isPending ? (
                  <Skeleton height={36} width={190} radius="md" />
                ) : configured ? (
                  button
                ) : (
                  <Tooltip label={NOT_CONFIGURED_HINT} multiline w={260} withArrow>
                    <span style={{ flexShrink: 0 }}>{button}</span>
                  </Tooltip>
                )}
              </Group>
            </Card>
          );
        })}
        {providers.isError && (
          <Text size="sm" c="red">
            Could not load the Git providers of this server.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
