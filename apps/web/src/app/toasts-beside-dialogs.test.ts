import { describe, expect, it } from 'vitest';
import { MIN_TOAST_WIDTH, toastPlace } from './toasts-beside-dialogs';

const box = (left: number, right: number, top = 30, bottom = 470) => ({ left, right, top, bottom });

describe('toastPlace', () => {
  it('leaves toasts where the page puts them when nothing is open', () => {
    expect(toastPlace({ width: 1366, height: 768 }, [])).toBeUndefined();
  });

  it("puts them beside a dialog, as wide as the room between it and the window's edge", () => {
    // the deploy dialog at 1366 px: its content ends at 1073 px
    expect(toastPlace({ width: 1366, height: 768 }, [box(293, 1073)])).toEqual({ right: 16, maxWidth: 1366 - 1073 - 12 - 16 });
  });

  it('puts them left of a drawer on the right, which hid every toast', () => {
    // the deploy side menu: 420 px against the right edge
    expect(toastPlace({ width: 1366, height: 768 }, [box(946, 1366, 0, 768)])).toEqual({ right: 1366 - 946 + 12, maxWidth: 946 - 12 - 16 });
    // right of a drawer on the left (the notifications drawer), as beside a dialog
    expect(toastPlace({ width: 1366, height: 768 }, [box(8, 408, 8, 760)])).toEqual({ right: 16, maxWidth: 1366 - 408 - 12 - 16 });
  });

  it('puts them below a dialog in a window too narrow to leave them room beside it', () => {
    // the create-project dialog at 800×600: 180 px either side, 130 px below
    expect(800 - 620 - 12 - 16).toBeLessThan(MIN_TOAST_WIDTH);
    expect(toastPlace({ width: 800, height: 600 }, [box(180, 620, 130, 470)])).toEqual({ top: 482 });
  });

  it('puts them over a dialog or drawer that leaves no room beside nor below (they lay behind it, unread)', () => {
    expect(toastPlace({ width: 800, height: 600 }, [box(180, 620, 30, 570)])).toEqual({ over: true, top: 16 });
    expect(toastPlace({ width: 1024, height: 700 }, [box(24, 1000, 0, 700)])).toEqual({ over: true, top: 16 });
    // a 1,000 px drawer on the right of a 1,024 px window
    expect(toastPlace({ width: 1024, height: 700 }, [box(24, 1024, 0, 700)])).toEqual({ over: true, top: 16 });
  });

  it("puts them over a dialog below its header, not over its close button (at the window's top they lay over it)", () => {
    // the deploy dialog at 1099×700: 132 px beside it, and no room below; its header row ends at 106 px
    expect(toastPlace({ width: 1099, height: 700 }, [{ ...box(160, 940, 48, 652), header: 105.5 }])).toEqual({ over: true, top: 118 });
    // a drawer's header under a dialog's: below the lowest
    expect(
      toastPlace({ width: 1024, height: 700 }, [
        { ...box(24, 1024, 0, 700), header: 60 },
        { ...box(100, 900, 40, 660), header: 100 },
      ]),
    ).toEqual({
      over: true,
      top: 112,
    });
  });

  it('looks for the free column nearest the right edge among several open boxes', () => {
    // a dialog over a drawer on the right: the room left of both
    expect(toastPlace({ width: 1920, height: 1080 }, [box(1500, 1920, 0, 1080), box(700, 1220)])).toEqual({
      right: 1920 - 1500 + 12,
      maxWidth: 1500 - 1220 - 24,
    });
    expect(toastPlace({ width: 1366, height: 768 }, [box(946, 1366, 0, 768), box(600, 1000)])).toEqual({ right: 1366 - 600 + 12, maxWidth: 600 - 12 - 16 });
  });
});
