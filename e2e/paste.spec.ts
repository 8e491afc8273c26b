/**
 * What engineers paste into the search box (src/app/search/paste.ts): an S2 token of any level is
 * outlined on the globe and its shard or shards named; a lat,lng pair becomes the search
 * centre; bad input says why in the box; in live mode a document id is looked up (the API
 * answered here by page.route in the server's shape: its own live test is
 * src/server/documents.live.test.ts). Expected shards come from s2-geometry (an independent S2
 * implementation) for the cell's level-10 span and the bundled boundary file's starts, never
 * from the page; the expected covering of a pasted centre from the core's Router.cover.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import s2geometry from 's2-geometry';
import { Router, cellOrdinal, parseRadius } from '../src/core/index.ts';
import { openExplorer, liveOn } from './explorer.ts';

const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');
const file = JSON.parse(read('../data/boundaries.json'));
const router = new Router(file);

const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const tokenOfKey = (key: string) => BigInt(S2.keyToId(key)).toString(16).replace(/0+$/, '');

/** The shards (names, key order) whose ranges a cell's level-10 span [first, last] overlaps, from the file's starts. */
function shardsOfSpan(first: number, last: number): string[] {
  return router.shards.filter((_, i) => router.starts[i] <= last && router.starts[i + 1] > first).map((s) => s.name);
}

/** A cell at `level` around a point: its token and expected shards (s2-geometry's key: level-10 descendants run key+"0…" to key+"3…"). */
function cellAround(lat: number, lng: number, level: number): { token: string; shards: string[] } {
  const key = S2.latLngToKey(lat, lng, level);
  const [face, digits] = key.split('/');
  const lo = level <= 10 ? `${face}/${digits}${'0'.repeat(10 - level)}` : `${face}/${digits.slice(0, 10)}`;
  const hi = level <= 10 ? `${face}/${digits}${'3'.repeat(10 - level)}` : lo;
  return { token: tokenOfKey(key), shards: shardsOfSpan(cellOrdinal(BigInt(S2.keyToId(lo))), cellOrdinal(BigInt(S2.keyToId(hi)))) };
}

async function paste(page: Page, text: string): Promise<void> {
  const box = page.getByTestId('city-search');
  await box.fill(text);
  await expect(page.getByTestId('paste-option')).toBeVisible();
  await box.press('Enter');
}

test.describe('pasting into the search box', () => {
  test('a level-3 token spanning several shards is outlined and names every shard it overlaps', async ({ page }) => {
    const errors = await openExplorer(page, '', { consoleErrors: true });
    // Around Dallas at level 3: a cell of about 1,000 km that crosses shard boundaries in the bundled file.
    const want = cellAround(32.7767, -96.797, 3);
    expect(want.shards.length).toBeGreaterThan(1);
    await paste(page, want.token.toUpperCase());
    const card = page.getByTestId('paste-cell');
    await expect(card).toHaveAttribute('data-token', want.token);
    await expect(card).toHaveAttribute('data-level', '3');
    await expect(card).toHaveAttribute('data-shards', want.shards.join(','));
    await expect(card).toContainText(`Spans ${(4 ** 7).toLocaleString('en-US')} level-10 cells, in ${want.shards.length} shards`);
    await expect(card).toContainText(`routing=${want.shards.join(',')}`);
    await expect(page.locator('body')).toHaveAttribute('data-pasted-cell', want.token);
    expect(errors).toEqual([]);
  });

  test('a level-30 token lies in one level-10 cell and names its one shard', async ({ page }) => {
    await openExplorer(page);
    const want = cellAround(37.7749, -122.4194, 30);
    expect(want.token).toHaveLength(16);
    expect(want.shards).toHaveLength(1);
    await paste(page, want.token);
    const card = page.getByTestId('paste-cell');
    await expect(card).toHaveAttribute('data-level', '30');
    await expect(card).toHaveAttribute('data-shards', want.shards[0]);
    await expect(card).toContainText('Inside one level-10 cell, so in one shard');
    await expect(page.getByTestId(`paste-shard-${want.shards[0]}`)).toContainText(`OpenSearch shard ${router.shards.find((s) => s.name === want.shards[0])!.shard}`);
    await page.getByRole('button', { name: 'clear the pasted cell' }).click();
    await expect(card).toHaveCount(0);
    await expect(page.locator('body')).toHaveAttribute('data-pasted-cell', '');
  });

  test('a lat,lng pair becomes the search centre, with the covering the core computes for it', async ({ page }) => {
    await openExplorer(page);
    await paste(page, '(41.8781, -87.6298)');
    await expect(page.getByTestId('centre-label')).toHaveText('41.8781° N, 87.6298° W');
    const r = router.cover(41.8781, -87.6298, parseRadius('15mi').km);
    await expect(page.getByTestId('cell-count')).toHaveText(String(r.ordinals.length));
    await expect(page.getByTestId('routing')).toHaveText(r.routing);
    await expect(page).toHaveURL(/lat=41\.8781&lng=-87\.6298/);
  });

  test('an invalid token and an out-of-range latitude say why in the box, and nothing is picked', async ({ page }) => {
    await openExplorer(page);
    const box = page.getByTestId('city-search');
    await box.fill('fff1');
    await expect(page.getByTestId('paste-error')).toHaveText(/"fff1" is not a valid S2 cell token: its first digit says cube face 7/);
    await expect(box).toHaveAttribute('aria-invalid', 'true');
    await box.fill('95.5, 10');
    await expect(page.getByTestId('paste-error')).toHaveText('lat 95.5 is out of range: a latitude is in [-90, 90] degrees (write lat,lng, latitude first)');
    await box.press('Enter');
    await expect(page.getByTestId('centre-label')).toHaveCount(0);
    // A city name still lists cities, with no error.
    await box.fill('philad');
    await expect(page.getByTestId('paste-error')).toHaveCount(0);
    await expect(page.getByTestId('city-matches')).toContainText('Philadelphia, PA');
  });

  test('in live mode a document id shows its location, cell, the file’s shard and the holding shard, and the verdict', async ({ page }) => {
    const sf = router.route(37.7749, -122.4194);
    const other = router.shards.find((s) => s.shard !== sf.shard)!;
    const answer = (id: string, held: { name: string; shard: number }) => ({
      status: 'found', index: file.index, id, kind: 'restaurant', location: { lat: 37.7749, lng: -122.4194 }, cell: sf.token,
      file: { name: sf.name, shard: sf.shard }, copies: [{ shard: held.shard, name: held.name, routing: held.name, agrees: held.shard === sf.shard }], agrees: held.shard === sf.shard,
    });
    await page.route('**/api/status', (r) => r.fulfill({ json: { connection: { status: 'down', url: 'http://127.0.0.1:9200', message: 'stubbed' }, boundary: null, index: null, drift: null, limits: {}, vocabulary: {} } }));
    await page.route('**/api/search?*', (r) => r.fulfill({ status: 503, json: { status: 'unavailable', error: { message: 'stubbed' } } }));
    const asked: string[] = [];
    await page.route('**/api/documents/*', (r) => {
      const id = decodeURIComponent(new URL(r.request().url()).pathname.split('/').pop()!);
      asked.push(id);
      if (id === 'r1') return r.fulfill({ json: answer('r1', sf) });
      if (id === 'r2') return r.fulfill({ json: answer('r2', other) });
      return r.fulfill({ status: 404, json: { status: 'not-found', error: { param: 'id', message: `no document with id "${id}" in index ${file.index} (searched on every shard)` } } });
    });
    await openExplorer(page);
    await liveOn(page);
    await page.getByTestId('tab-radius').click();
    await paste(page, 'r1');
    const card = page.getByTestId('paste-doc');
    await expect(card).toHaveAttribute('data-agrees', 'true');
    await expect(page.getByTestId('paste-doc-file')).toHaveText(`${sf.name} (shard ${sf.shard})`);
    await expect(page.getByTestId('paste-doc-held')).toHaveText(`${sf.name} (shard ${sf.shard}, routing ${sf.name})`);
    await expect(card).toContainText(sf.token);
    await expect(card).toContainText('37.7749° N, 122.4194° W');
    await expect(page.locator('body')).toHaveAttribute('data-pasted-cell', sf.token);
    await paste(page, 'r2');
    await expect(card).toHaveAttribute('data-agrees', 'false');
    await expect(page.getByTestId('paste-doc-verdict')).toContainText(`a copy is on shard ${other.shard}, the file names shard ${sf.shard} (${sf.name})`);
    await paste(page, 'r404');
    await expect(card).toHaveAttribute('data-state', 'failed');
    await expect(card).toContainText('no document with id "r404"');
    expect(asked).toEqual(['r1', 'r2', 'r404']);
  });
});
