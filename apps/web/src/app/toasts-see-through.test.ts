import { describe, expect, it } from 'vitest';
import { letsThrough } from './toasts-see-through';

describe('letsThrough', () => {
  const toast = { left: 900, top: 300, right: 1340, bottom: 364 };
  const close = { left: 1300, top: 318, right: 1328, bottom: 346 };

  it('lets the mouse through over the toast, not beside it', () => {
    expect(letsThrough(1000, 330, toast, [close])).toBe(true);
    expect(letsThrough(899, 330, toast, [close])).toBe(false);
    expect(letsThrough(1000, 365, toast, [close])).toBe(false);
  });

  it("keeps its close button and links the toast's own", () => {
    expect(letsThrough(1310, 330, toast, [close])).toBe(false);
    expect(letsThrough(1290, 330, toast, [close])).toBe(true);
  });
});
