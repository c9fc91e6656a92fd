import { notifications, notificationsStore } from '@mantine/notifications';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCES_NAVIGATION_MS, followRoute, toast } from './toast';

const shown = () => notificationsStore.getState().notifications.map((n) => String(n.message));

describe('toasts and the page the user leaves', () => {
  beforeEach(() => {
    toast.clear();
    vi.useFakeTimers({ now: 0 });
    followRoute('/environments/e1');
  });

  it("a page's success closes when the user goes to another page; its errors, warnings and infos stay", () => {
    toast.success('Successfully updated resource configuration.');
    toast.error('The plan failed');
    toast.warning('Careful');
    toast.info('Please wait...');
    vi.advanceTimersByTime(ANNOUNCES_NAVIGATION_MS + 1);
    followRoute('/environments/e1/deployment-insights');
    expect(shown()).toEqual(['The plan failed', 'Careful', 'Please wait...']);
  });

  it('a success stays while the path does not change (a tab or a search in the address)', () => {
    toast.success('Saved');
    vi.advanceTimersByTime(5 * ANNOUNCES_NAVIGATION_MS);
    followRoute('/environments/e1');
    expect(shown()).toEqual(['Saved']);
  });

  it('a success shown as its page sends the user on announces the next page: it stays there, and closes when the user leaves that one', () => {
    toast.success('Pipeline build has been created');
    followRoute('/pipelines/p1/details');
    expect(shown()).toEqual(['Pipeline build has been created']);
    vi.advanceTimersByTime(ANNOUNCES_NAVIGATION_MS + 1);
    followRoute('/pipelines');
    expect(shown()).toEqual([]);
  });

  it('a success closed by the user or its time is forgotten', () => {
    const id = toast.success('Copied to clipboard!');
    toast.dismiss(id);
    vi.advanceTimersByTime(ANNOUNCES_NAVIGATION_MS + 1);
    const hide = vi.spyOn(notifications, 'hide');
    followRoute('/overview');
    expect(hide).not.toHaveBeenCalled();
    hide.mockRestore();
  });
});
