import { Stack, Tabs, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { useCurrentProject } from '../../api/session';
import { PageHeader } from '../../ui/PageHeader';
import { toastClearance } from '../../ui/toast-clearance';
import { DEFAULT_SETTINGS_TAB, SETTINGS_TABS, settingsScreen } from './settings-tabs';
import { AccessManagementTab } from './components/AccessManagementTab';
import { BillingTab } from './components/BillingTab';
import { NotificationsTab } from './components/NotificationsTab';
import { GitAccountsTab } from '../git-accounts';
import { CloudAccountsTab } from '../cloud-accounts';
import classes from './SettingsPage.module.css';

/** /settings?tab=… (spec §2.9). */
export default function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const project = useCurrentProject();
  const tab = params.get('tab');

  // No tab: the URL becomes tab=git.
  useEffect(() => {
    if (!tab) setParams({ tab: DEFAULT_SETTINGS_TAB }, { replace: true });
  }, [tab, setParams]);

  const screen = settingsScreen(tab ?? DEFAULT_SETTINGS_TAB);

  return (
    <Stack gap={0}>
      <PageHeader title="Settings" description={project ? `Project ${project.name}` : undefined} />
      <Tabs
        value={screen}
        onChange={(v) => v && setParams({ tab: v })}
        variant="unstyled"
        classNames={{ list: classes.list, tab: classes.tab, tabLabel: classes.tabLabel }}
      >
        {/* Toasts start below the tabs, not over the one the user goes to next. */}
        <Tabs.List ref={toastClearance}>
          {SETTINGS_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              <Text fw={600} size="sm">
                {t.caption}
              </Text>
              <Text size="xs" c="dimmed" mt={2}>
                {t.description}
              </Text>
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <div className={classes.panel} data-testid={`settings-${screen}`}>
        {project &&
          (screen === 'management' ? (
            <AccessManagementTab projectId={project.id} />
          ) : screen === 'accounts' ? (
            <CloudAccountsTab projectId={project.id} />
          ) : screen === 'git' ? (
            <GitAccountsTab projectId={project.id} />
          ) : screen === 'billing' ? (
            <BillingTab projectId={project.id} />
          ) : (
            <NotificationsTab projectId={project.id} />
          ))}
      </div>
    </Stack>
  );
}
