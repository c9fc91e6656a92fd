/** The settings screens, their captions and descriptions (spec §2.9). */
export const SETTINGS_TABS = [
  { value: 'accounts', caption: 'Cloud Accounts', description: 'Connect Cloud accounts' },
  { value: 'git', caption: 'Git Accounts', description: 'Connect and manage Git accounts' },
  { value: 'management', caption: 'Access Management', description: 'Invite users and manage permissions' },
  { value: 'notifications', caption: 'Notifications', description: 'Configure notification preferences' },
  { value: 'billing', caption: 'Billing', description: 'Review or edit your billing preferences' },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]['value'];
export const DEFAULT_SETTINGS_TAB: SettingsTab = 'git';

/** Which screen a ?tab= value shows: an unknown value shows the notifications screen. */
export function settingsScreen(tab: string | null): SettingsTab {
  return (SETTINGS_TABS.find((t) => t.value === tab)?.value ?? 'notifications') as SettingsTab;
}
