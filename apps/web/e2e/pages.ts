import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from 'playwright-core';

/** A table's body and footer rows as `{ header: cell text }`. */
export function readTable(table: Locator): Promise<Record<string, string>[]> {
  return table.evaluate((element) => {
    const text = (cell: Element) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim();
    // A sortable header's button also says what a click does ("Sort ascending", for screen
    // readers): the header is keyed by its title alone.
    const title = (cell: Element) => {
      const copy = cell.cloneNode(true) as Element;
      copy.querySelectorAll('button .sr-only').forEach((hint) => hint.remove());
      return text(copy);
    };
    const headers = [...element.querySelectorAll('thead th')].map(title);
    // A cell spanning columns is keyed by the first header it sits under.
    return [...element.querySelectorAll('tbody tr, tfoot tr')].map((row) => {
      let column = 0;
      return Object.fromEntries(
        [...row.querySelectorAll<HTMLTableCellElement>('td, th')].map((cell) => {
          const key = headers[column] || String(column);
          column += cell.colSpan || 1;
          return [key, text(cell)];
        }),
      );
    });
  });
}

/** Only the `keys` of each row, so an assertion names the columns it is about. */
export const pick = (rows: Record<string, string>[], keys: string[]) =>
  rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]])));

/**
 * Waits until the screen has its heading (`heading`, when given) and has finished loading: no
 * skeleton placeholder and no list still fetching (`aria-busy`).
 */
export async function waitForScreen(page: Page, heading?: string | RegExp): Promise<void> {
  await (
    heading === undefined
      ? page.locator('h1').first()
      : page.getByRole('heading', { level: 1, name: heading })
  ).waitFor();
  await page.waitForFunction(
    () => !document.querySelector('[data-slot="skeleton"], [aria-busy="true"]'),
  );
}

/**
 * The serious and critical WCAG 2 A/AA violations axe finds on the page, as short lines naming
 * the rule and the elements (an empty list passes).
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Axe measures colours as painted: a toast or dialog still fading in has the contrast of its
  // current opacity. Wait for every finite animation or transition to end (pulses loop forever).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  // Legacy mode: axe.run in the page itself. The default (runPartial, then finishRun in a new
  // blank page) exists for cross-origin frames, which the app has none of, and cost a page, a
  // second copy of axe and every rule's passing nodes sent through the driver on each scan. Only
  // violations are collected (`resultTypes`): passes and the rest are not read here.
  const scan = await new AxeBuilder({ page })
    .options({ resultTypes: ['violations'] })
    .withTags(['wcag2a', 'wcag2aa'])
    .setLegacyMode(true)
    .analyze();
  return scan.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    );
}
