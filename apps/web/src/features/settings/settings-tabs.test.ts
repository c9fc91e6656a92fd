import { describe, expect, it } from 'vitest';
import { SETTINGS_TABS, settingsScreen } from './settings-tabs';

describe('settings tabs', () => {
  it.each([
    ['accounts', 'accounts'],
    ['git', 'git'],
    ['management', 'management'],
    ['notifications', 'notifications'],
    ['billing', 'billing'],
    ['whatever', 'notifications'],
    ['', 'notifications'],
  ])('tab=%s shows %s', (tab, screen) => {
    expect(settingsScreen(tab)).toBe(screen);
  });

  it('has the captions and descriptions of the spec', () => {
    expect(SETTINGS_TABS.map((t) => [t.caption, t.description])).toEqual([
      ['Cloud Accounts', 'Connect Cloud accounts'],
      ['Git Accounts', 'Connect and manage Git accounts'],
      ['Access Management', 'Invite users and manage permissions'],
      ['Notifications', 'Configure notification preferences'],
      ['Billing', 'Review or edit your billing preferences'],
    ]);
  });
});
