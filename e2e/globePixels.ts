/**
 * Reading the globe's pixels in a browser test: the WebGL canvas (not the
 * labels' overlay), copied after a few frames so the latest draw is in it.
 */
import type { Page } from '@playwright/test';

/** centreBlock returns the RGBA bytes of a size × size block centred on the globe canvas, row by row. */
export function centreBlock(page: Page, size: number): Promise<number[]> {
  return page.evaluate(async (n) => {
    const c = document.querySelector('.globe-canvas canvas:not(.globe-labels)') as HTMLCanvasElement;
    for (let i = 0; i < 3; i++) await new Promise((r) => requestAnimationFrame(r));
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(c, 0, 0);
    const half = Math.floor(n / 2);
    return Array.from(ctx.getImageData(Math.floor(c.width / 2) - half, Math.floor(c.height / 2) - half, n, n).data);
  }, size);
}
