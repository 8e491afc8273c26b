/**
 * Opening the explorer in a browser test: go to a link and wait for its first
 * frame (`body[data-ready]`), collecting the page's errors as they happen.
 */
import { expect, type Page } from '@playwright/test';

/**
 * openExplorer opens `/` + `query` and waits until the explorer is ready.
 * Returns a live array of the page's uncaught errors, and with
 * `consoleErrors` also its console errors.
 */
export async function openExplorer(page: Page, query = '', opts: { consoleErrors?: boolean } = {}): Promise<string[]> {
  const errors: string[] = [];
  if (opts.consoleErrors) page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.goto('/' + query);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return errors;
}

/** liveOn opens the Live tab and switches Live on (with `fromOff`, it must have been off). */
export async function liveOn(page: Page, opts: { fromOff?: boolean } = {}): Promise<void> {
  await page.getByTestId('tab-live').click();
  const toggle = page.getByTestId('live-toggle');
  if (opts.fromOff) await expect(toggle).toHaveAttribute('aria-checked', 'false');
  if ((await toggle.getAttribute('aria-checked')) !== 'true') await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
}
