import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { notificationEvents } from './notifications';

describe("the project room's notification event", () => {
  it('makes the notifications list be read again at once', () => {
    const qc = new QueryClient();
    qc.setQueryData(['notifications'], { notifications: [] });
    expect(qc.getQueryState(['notifications'])?.isInvalidated).toBe(false);
    notificationEvents.notification?.(qc, 'p1', { message: 'Build #1 of broken on main failed' });
    expect(qc.getQueryState(['notifications'])?.isInvalidated).toBe(true);
  });
});
