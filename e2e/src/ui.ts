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
