import { describe, expect, it } from 'vitest';
import { toastTop } from './toast-clearance';

const window = { width: 1366, height: 900 };
/** A button at the right of the window (where the toasts are), from top to bottom. */
const rightButton = (top: number, bottom: number) => ({ top, bottom, left: 1180, right: 1330 });

describe('where top-right toasts start', () => {
  it('below the rows, or at the window edge without any', () => {
    expect(toastTop(200, [], window)).toBe(212);
    expect(toastTop(undefined, [], window)).toBeUndefined();
  });

  it('past a primary action just below the rows in their column (Access Management: Add New User under the tabs)', () => {
    expect(toastTop(218, [rightButton(247, 283)], window)).toBe(295);
    // and past the next one, if the toast would lie over it there
    expect(toastTop(218, [rightButton(247, 283), rightButton(320, 356)], window)).toBe(368);
  });

  it('not for actions left of their column or clear of the toast', () => {
    expect(toastTop(218, [{ top: 247, bottom: 283, left: 400, right: 500 }], window)).toBe(230);
    expect(toastTop(218, [rightButton(400, 436)], window)).toBe(230);
    expect(toastTop(218, [rightButton(100, 150)], window)).toBe(230);
  });

  it('below the rows again when clearing the actions would leave the window', () => {
    expect(toastTop(218, [rightButton(240, 860)], window)).toBe(230);
  });

  it('in the window when the rows leave no room for a toast below them (a short window under a tall header and facts)', () => {
    expect(toastTop(700, [], { width: 1099, height: 700 })).toBe(700 - 76 - 16);
    expect(toastTop(40, [], { width: 1099, height: 60 })).toBe(16);
  });
});
