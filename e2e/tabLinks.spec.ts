/**
 * Every tab opened by a link works as it does when clicked (issue 31): each test opens the
 * explorer with `?tab=<id>` (nothing clicked before) and uses the tab's first action. The Review
 * tab is the one that did not: after `/?tab=review`, "Edit a copy of the current file" stayed
 * disabled, because the panel asked for the cell weights on its first render, before the review's
 * driver had started (it starts after the first frame); the driver now asks from the state.
 *
 * The Live, Nodes and Migration tabs ask the live API; the explorer's server answers whether an
 * OpenSearch node is up or not (OPENSEARCH_URL), and each test accepts either answer: what it
 * checks is that the tab's driver started from the link and its answer is shown.
 */
import { test, expect } from '@playwright/test';
import { openExplorer } from './explorer.ts';
import { TABS } from '../src/app/shell/url.ts';

test.describe('a tab opened by a link', () => {
  test('the link names every tab of the side panel', () => {
    // The tests below cover these, in the panel's order.
    expect([...TABS]).toEqual(['radius', 'live', 'nodes', 'traffic', 'review', 'migration', 'shards', 'about']);
  });

  test('Radius search: a preset searches its city', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=radius');
    await expect(page.getByTestId('tab-radius')).toHaveAttribute('aria-selected', 'true');
    await page.getByTestId('preset-san-francisco').click();
    await expect(page.getByTestId('cell-count')).toHaveText(/^[1-9]\d*$/);
    await expect(page.getByTestId('shard-count')).toHaveText(/^[1-9]\d* \/ \d+$/);
    expect(errors).toEqual([]);
  });

  test('Live: the switch turns live mode on and the connection is reported', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=live');
    await expect(page.getByTestId('tab-live')).toHaveAttribute('aria-selected', 'true');
    const toggle = page.getByTestId('live-toggle');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', /\S/);
    expect(errors).toEqual([]);
  });

  test('Nodes: the poll of the cluster runs and its answer is shown', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=nodes');
    await expect(page.getByTestId('tab-nodes')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('nodes-status')).toHaveAttribute('data-state', /^(up|down|failed)$/);
    expect(errors).toEqual([]);
  });

  test('Traffic: the poll of the recorded traffic runs and its answer is shown', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=traffic');
    await expect(page.getByTestId('tab-traffic')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('traffic-panel')).toHaveAttribute('data-state', /^(ready|empty|failed)$/);
    expect(errors).toEqual([]);
  });

  test('Review: "Edit a copy of the current file" is enabled and opens a candidate', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=review');
    await expect(page.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
    const edit = page.getByTestId('review-edit-current');
    // Clicking the tab enables it in about a second; the link must do the same.
    await expect(edit).toBeEnabled();
    await edit.click();
    await expect(page.getByTestId('review-candidate')).toBeVisible();
    await expect(page.getByTestId('review-moved-documents')).toHaveText('0');
    expect(errors).toEqual([]);
  });

  test('Migration: the poll of the index runs and its state is shown', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=migration');
    await expect(page.getByTestId('tab-migration')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('migration-state')).toHaveAttribute('data-state', /^(moving|settled|unknown)$/);
    expect(errors).toEqual([]);
  });

  test('Shards: a row glides the globe to its shard', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=shards&lat=0&lng=0');
    await expect(page.getByTestId('tab-shards')).toHaveAttribute('aria-selected', 'true');
    const row = page.locator('[data-testid^="shard-row-"]').nth(1);
    await row.click();
    // The view follows the glide into the address bar.
    await expect.poll(() => new URL(page.url()).searchParams.get('lng'), { timeout: 20_000 }).not.toBe('0');
    expect(errors).toEqual([]);
  });

  test('How to read: the guide is shown', async ({ page }) => {
    const errors = await openExplorer(page, '?tab=about');
    await expect(page.getByTestId('tab-about')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toContainText(/\w{3,}/);
    expect(errors).toEqual([]);
  });
});
