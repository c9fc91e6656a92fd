import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

/** Picks `label` in a form field: a native select by its option's label, a Mantine select or combobox by clicking the option. */
export async function choose(page: Page, field: Locator, label: string | RegExp): Promise<void> {
  if (typeof label === 'string' && (await field.evaluate((el) => el.tagName)) === 'SELECT') return void (await field.selectOption({ label }));
  await field.click();
  await page
    .getByRole('option', { name: label, exact: typeof label === 'string' })
    .first()
    .click();
}

/** Whether clicks across the element, left to right, reach it (nothing, e.g. a toast, lies over any part of it). */
export const onTop = (locator: Locator) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return [0.1, 0.5, 0.9].every((at) => el.contains(document.elementFromPoint(r.x + r.width * at, r.y + r.height / 2)));
  });

/**
 * What of `scopes` (a page's header, its card of facts, a dialog's header) a toast lies over: their buttons (a dialog's
 * close button too) and the cells of their fact grids, each by its text (or label, or kind: 'CloseButton') with the toast's. Waits for a toast, and measures once the toasts stand still
 * (their opening slide ended). Empty when nothing is covered.
 */
export async function underToasts(page: Page, ...scopes: Locator[]): Promise<string[]> {
  await toastsStill(page);
  const covered = await Promise.all(
    scopes.map((scope) =>
      scope.evaluate((root) => {
        const toasts = Array.from(document.querySelectorAll('.mantine-Notification-root'), (t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
        const grid = [root, ...Array.from(root.querySelectorAll('*'))].find((e) => getComputedStyle(e).display === 'grid');
        const buttons = root.querySelectorAll('.mantine-Button-root, .mantine-ActionIcon-root, .mantine-CloseButton-root');
        const items = [...Array.from(buttons), ...Array.from(grid?.children ?? [])];
        return items.flatMap((item) => {
          const r = item.getBoundingClientRect();
          const over = toasts.find(({ box }) => r.width > 0 && box.left < r.right && box.right > r.left && box.top < r.bottom && box.bottom > r.top);
          const name = item.getAttribute('aria-label') ?? (item.textContent?.trim().replace(/\s+/g, ' ') || item.className.match(/mantine-(\w+)-root/)?.[1]);
          return over ? [`${name} under '${over.text}'`] : [];
        });
      }),
    ),
  );
  return covered.flat();
}

/**
 * The mouse on the centre of `locator`, which a toast lies over: whether the pointer reaches it there (the toast lets it
 * through, elementFromPoint) and the toast over it shows it (almost transparent, opacity under 0.2). Answers the point.
 */
export async function pointThroughToast(page: Page, locator: Locator): Promise<{ x: number; y: number }> {
  const box = (await locator.boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await expect.poll(() => locator.evaluate((el, [px, py]) => el.contains(document.elementFromPoint(px!, py!)), [x, y])).toBe(true);
  const seeThrough = () =>
    page.evaluate(
      ([px, py]) =>
        Array.from(document.querySelectorAll('.mantine-Notification-root'))
          .filter((t) => {
            const r = t.getBoundingClientRect();
            return px! >= r.left && px! <= r.right && py! >= r.top && py! <= r.bottom;
          })
          .map((t) => Number(getComputedStyle(t).opacity) < 0.2),
      [x, y],
    );
  await expect.poll(seeThrough).toEqual([true]);
  return { x, y };
}

/** Waits for a toast, and for the toasts to stand still (their opening slide ended). */
const toastsStill = (page: Page) =>
  page.waitForFunction(() => {
    const shown = Array.from(document.querySelectorAll('.mantine-Notification-root'));
    return shown.length > 0 && shown.every((t) => t.closest('.mantine-Notifications-root')!.getAnimations({ subtree: true }).length === 0);
  });

/**
 * Which of `blocks` (a page's cards, panels, lists: all of each, not only its buttons and facts as underToasts) a shown
 * toast lies over, each by its test id (or text) with the toast's; once the toasts stand still. Empty when none.
 */
export async function toastsOverBlocks(page: Page, ...blocks: Locator[]): Promise<string[]> {
  await toastsStill(page);
  const covered = await Promise.all(
    blocks.map((block) =>
      block.evaluate((el) => {
        const r = el.getBoundingClientRect();
        const name = el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 40);
        return Array.from(document.querySelectorAll('.mantine-Notification-root'), (t) => ({ text: t.textContent, box: t.getBoundingClientRect() }))
          .filter(({ box }) => box.left < r.right && box.right > r.left && box.top < r.bottom && box.bottom > r.top)
          .map(({ text }) => `${name} under '${text}'`);
      }),
    ),
  );
  return covered.flat();
}

/** Whether the element lies whole inside `box` (horizontally) and its text is not cut. */
export const fitsIn = async (element: Locator, box: Locator) => {
  const [e, b] = await Promise.all([element.boundingBox(), box.boundingBox()]);
  const whole = await element.evaluate((el) => el.scrollWidth <= el.clientWidth + 0.5);
  return whole && e!.x >= b!.x && e!.x + e!.width <= b!.x + b!.width + 0.5;
};

/** On how many lines an element's text lies (1: it does not wrap). */
export const textLines = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });

/**
 * The labels of a fact grid (the first grid inside `card`) that do not fit their cell: wrapped onto a second line,
 * or wider than the cell (clipped). Each cell's label is its first element holding text only. Empty when all fit.
 */
export const crowdedFactLabels = (card: Locator) =>
  card.evaluate((root) => {
    const grid = [root, ...Array.from(root.querySelectorAll('*'))].find((e) => getComputedStyle(e).display === 'grid');
    if (!grid) return ['no grid'];
    return Array.from(grid.children).flatMap((cell) => {
      const label = Array.from(cell.querySelectorAll('*')).find((e) => e.children.length === 0 && e.textContent?.trim());
      if (!label) return [];
      const range = document.createRange();
      range.selectNodeContents(label);
      const lines = new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
      const overflow = Math.max(label.scrollWidth - label.clientWidth, range.getBoundingClientRect().right - cell.getBoundingClientRect().right);
      const width = Math.round(cell.getBoundingClientRect().width);
      return lines > 1 || overflow > 0.5 ? [`${label.textContent} (${lines} lines, ${width} px cell, ${Math.round(overflow)} px over)`] : [];
    });
  });

/** The texts inside `scope` shown cut to '…' (an ellipsis label whose text is wider than its box). Empty when none is. */
export const cutLabels = (scope: Locator) =>
  scope.evaluate((root) =>
    [root, ...Array.from(root.querySelectorAll('*'))].flatMap((e) => {
      if (getComputedStyle(e).textOverflow !== 'ellipsis' || !e.textContent?.trim()) return [];
      const range = document.createRange();
      range.selectNodeContents(e);
      const over = range.getBoundingClientRect().width - e.getBoundingClientRect().width;
      return over > 0.01 && e.scrollWidth > e.clientWidth ? [`${e.textContent.trim()} (${over.toFixed(2)} px over)`] : [];
    }),
  );

/**
 * A screen's main table and header keep their texts whole at 1280 px (the side menu beside the page): nothing in
 * `scopes` is cut to '…' (cutLabels). The window is as wide as before after.
 */
export async function expectNothingCut(page: Page, ...scopes: Locator[]): Promise<void> {
  const size = page.viewportSize() ?? { width: 1366, height: 900 };
  await page.setViewportSize({ width: 1280, height: size.height });
  for (const scope of scopes) await expect.poll(() => cutLabels(scope), { message: `cut at 1280 px in ${scope}` }).toEqual([]);
  await page.setViewportSize(size);
}

/**
 * The fact grid of `card` takes its columns from the card's own width (container queries): with the side menu beside
 * the page (1280 px) and in a drawer (1099 px) no label wraps or is cut. A screenshot at each width,
 * e2e/.artifacts/<name>-<width>.png; the window is 1366 px wide again after.
 */
export async function expectFactsFit(page: Page, card: Locator, name: string): Promise<void> {
  for (const width of [1280, 1099]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => crowdedFactLabels(card), { message: `${width} px` }).toEqual([]);
    await page.screenshot({ path: `e2e/.artifacts/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}
