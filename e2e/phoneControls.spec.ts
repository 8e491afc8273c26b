/**
 * The globe's controls on a phone (390×844): the level, layer and colour boxes fold behind one
 * button (src/app/globe/ControlsFold.tsx), so the globe shows the data. The share of the globe canvas
 * the overlay controls cover is measured in the page (every painted box over the globe, as a
 * union of their rectangles clipped to the canvas) with the boxes folded and opened; a desktop
 * (1280×800) keeps its boxes in view with no button.
 */
import { test, expect, type Page } from '@playwright/test';
import { openExplorer } from './explorer.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** The share (0..1) of the globe's WebGL canvas covered by the overlay controls that are painted (a background or a border), as a union. */
function coveredShare(page: Page): Promise<number> {
  return page.evaluate(() => {
    const canvas = document.querySelector('.globe-canvas canvas:not(.globe-labels)') as HTMLCanvasElement;
    const g = canvas.getBoundingClientRect();
    const w = Math.round(g.width);
    const h = Math.round(g.height);
    const covered = new Uint8Array(w * h);
    for (const el of document.querySelectorAll<HTMLElement>('.globe-view .overlay *')) {
      const cs = getComputedStyle(el);
      const painted = !/rgba\(0, 0, 0, 0\)|transparent/.test(cs.backgroundColor) || parseFloat(cs.borderTopWidth) > 0;
      if (!painted || cs.visibility === 'hidden' || el.getClientRects().length === 0) continue;
      const r = el.getBoundingClientRect();
      const x0 = Math.max(0, Math.floor(r.left - g.left));
      const x1 = Math.min(w, Math.ceil(r.right - g.left));
      const y0 = Math.max(0, Math.floor(r.top - g.top));
      const y1 = Math.min(h, Math.ceil(r.bottom - g.top));
      for (let y = y0; y < y1; y++) covered.fill(1, y * w + x0, Math.max(y * w + x0, y * w + x1));
    }
    let n = 0;
    for (const v of covered) n += v;
    return n / (w * h);
  });
}

test.describe('the globe controls on a phone', () => {
  test.use({ viewport: PHONE });

  test('fold behind one button, covering under a tenth of the globe; opened they are the boxes and work', async ({ page }) => {
    const errors = await openExplorer(page, '', { consoleErrors: true });
    const toggle = page.getByTestId('globe-controls-toggle');
    await expect(toggle).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('level-input')).toBeHidden();
    await expect(page.getByTestId('layer-grid')).toBeHidden();
    await expect(page.getByTestId('color-by-node')).toBeHidden();
    const folded = await coveredShare(page);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('level-input')).toBeVisible();
    const opened = await coveredShare(page);
    console.log(`globe canvas covered by overlay controls at 390×844: folded ${(folded * 100).toFixed(1)}%, opened ${(opened * 100).toFixed(1)}%`);
    expect(folded).toBeLessThan(0.1);
    expect(opened).toBeGreaterThan(folded * 2);

    // The boxes work from the fold: the level, a layer, the colouring.
    const before = await page.getByTestId('level-readout').textContent();
    await page.getByRole('button', { name: 'Finer level' }).click();
    await expect(page.getByTestId('level-readout')).not.toHaveText(before!);
    await expect(page).toHaveURL(/level=5/);
    const grid = page.getByTestId('layer-grid');
    const was = await grid.getAttribute('aria-pressed');
    await grid.click();
    await expect(grid).toHaveAttribute('aria-pressed', was === 'true' ? 'false' : 'true');
    await page.getByTestId('color-by-node').scrollIntoViewIfNeeded();
    await page.getByTestId('color-by-node').click();
    await expect(page.getByTestId('region-paint')).toHaveAttribute('data-by', 'node');

    // Escape folds them again, and so does the button.
    await page.getByTestId('color-by-node').press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('level-input')).toBeHidden();
    await toggle.click();
    await toggle.click();
    await expect(page.getByTestId('level-input')).toBeHidden();
    expect(errors).toEqual([]);
  });
});

test.describe('the globe controls on a desktop', () => {
  test.use({ viewport: DESKTOP });

  test('show the boxes as before, with no fold button', async ({ page }) => {
    await openExplorer(page);
    await expect(page.getByTestId('globe-controls-toggle')).toBeHidden();
    for (const id of ['level-input', 'layer-grid', 'color-by-node']) await expect(page.getByTestId(id)).toBeVisible();
    // Laid out in one column in the top-left corner, level first, then layers, then color-by.
    const tops = await Promise.all(['.level-control', '.layer-toggles', '.color-by'].map((s) => page.locator(s).evaluate((e) => e.getBoundingClientRect().top)));
    expect(tops).toEqual([...tops].sort((a, b) => a - b));
    const left = await page.locator('.level-control').evaluate((e) => e.getBoundingClientRect().left - e.closest('.globe-view')!.getBoundingClientRect().left);
    expect(left).toBe(12);
  });
});
