/**
 * The key visualizer (issue 39) on the real cluster, read through its test ids.
 *
 * The test starts an explorer of its own (scripts/start.mjs, the tests' boundary file) whose
 * recorder samples the engine's per-shard counters every 2 s into a history index of the test's
 * own, so minutes of a real deployment fit in seconds. A separate client (geoshard's OpenSearch
 * client in this process, not the page) sends a known pattern to the tests' index: a hot spot at
 * San Francisco for 12 s, then at New York for 12 s, each a search every 60 ms routed to that
 * city's range (the name the core gives it), over a background of searches sent to every shard.
 * Expected ranges come from the routing core run here; expected rates from what this client sent.
 *
 * It checks: the picture spans the ranges and the buckets; brushing the San Francisco stretch gives
 * San Francisco's range the highest rate (and New York's a background one), and the New York stretch
 * the reverse; both ranges are listed hot; "show on the globe" makes the stretch's searches the
 * Requests layer's workload; "split in Review" opens the hot range's split as Review's candidate.
 *
 * Where the cluster runs the geoshard plugin (npm test starts it so), the hot spot's searches are
 * sent with no routing through a search pipeline of the plugin's, named on each request (the
 * index keeps no default pipeline: the other specs route as a client), so the plugin counts the
 * cells of their coverings: then the Requests layer's legend reads in searches per second, its
 * busiest cell at about the rate sent, and pointing at New York's band in a New York bucket names
 * its busiest cells, each a cell of the hot spot's covering (computed here by the core), at about
 * the rate sent. Without the plugin the legend reads in shard queries per second. On that real
 * picture (hover, brush, hot rows), axe finds no violation at a desktop and a phone size, and
 * nothing of the panel runs past the phone's screen.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Router } from '../src/core/index.ts';
import { ensureLiveIndex, file, ROOT } from './liveIndex.ts';
import { E2E_BOUNDARIES } from './e2eIndex.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';
import { searchPipeline } from '../src/opensearch/pluginPipelines.ts';
import { cellFromOrdinal, cellToken } from '../src/core/cells.ts';

const HISTORY = `gs-e2e-traffic-${process.pid}`;
/** The plugin's search pipeline the hot spot's searches name, when the cluster runs the plugin. */
const PIPELINE = `gs-e2e-traffic-route-${process.pid}`;
const HOT_KM = 20;
const INTERVAL_S = 2;
const PHASE_MS = 12_000;
const HOT_EVERY_MS = 60;
const BACKGROUND_EVERY_MS = 500;
const router = new Router(file);
const SF = { lat: 37.7749, lng: -122.4194 };
const NY = { lat: 40.7128, lng: -74.006 };
const sfName = router.route(SF.lat, SF.lng).name;
const nyName = router.route(NY.lat, NY.lng).name;

let server: ChildProcess | null = null;
let base = '';
let client: OpenSearchClient;
let plugin = false;

/** startServer runs the explorer on a free port with a 2-second recorder; resolves to its address. */
async function startServer(): Promise<string> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), GEOSHARD_BOUNDARIES: E2E_BOUNDARIES, GEOSHARD_TRAFFIC_INTERVAL_S: String(INTERVAL_S), GEOSHARD_TRAFFIC_INDEX: HISTORY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server = child;
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /geoshard explorer: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('exit', (code) => reject(new Error(`the explorer exited ${code} before serving:\n${out}`)));
  });
}

/** A search near a place, sent as a client would: routed to `routing`, through the plugin's pipeline (`routing` 'plugin'), or to every shard. */
const search = (at: { lat: number; lng: number }, routing?: string) =>
  client.request('POST', `/${file.index}/_search?request_cache=false${routing === 'plugin' ? `&search_pipeline=${PIPELINE}` : routing ? `&routing=${encodeURIComponent(routing)}` : ''}`, {
    body: { size: 1, query: { bool: { filter: [{ geo_distance: { distance: `${HOT_KM}km`, location: { lat: at.lat, lon: at.lng } } }] } } },
  });

/** Runs the hot spot at `at` for PHASE_MS with the background; returns its start and end (ms) and what was sent. */
async function phase(at: { lat: number; lng: number }, routing: string): Promise<{ start: number; end: number; hot: number }> {
  const start = Date.now();
  let hot = 0;
  const hotLoop = (async () => {
    for (let next = start; Date.now() < start + PHASE_MS; next += HOT_EVERY_MS) {
      await search(at, plugin ? 'plugin' : routing);
      hot++;
      await new Promise((r) => setTimeout(r, Math.max(0, next + HOT_EVERY_MS - Date.now())));
    }
  })();
  const background = (async () => {
    while (Date.now() < start + PHASE_MS) {
      await search({ lat: 39, lng: -96 });
      await new Promise((r) => setTimeout(r, BACKGROUND_EVERY_MS));
    }
  })();
  await Promise.all([hotLoop, background]);
  return { start, end: Date.now(), hot };
}

/** The hover's bucket at each of `steps` points across the picture: x (page px), its start and end (ms). */
async function bucketsAcross(page: Page, steps = 80): Promise<{ x: number; y: number; start: number; end: number }[]> {
  const box = (await page.getByTestId('traffic-heatmap').boundingBox())!;
  const hover = page.getByTestId('traffic-hover');
  const out: { x: number; y: number; start: number; end: number }[] = [];
  const y = box.y + box.height / 2;
  for (let k = 0; k < steps; k++) {
    const x = box.x + ((k + 0.5) / steps) * box.width;
    await page.mouse.move(x, y);
    await expect(hover).not.toHaveAttribute('data-start', '');
    out.push({ x, y, start: Date.parse((await hover.getAttribute('data-start'))!), end: Date.parse((await hover.getAttribute('data-end'))!) });
  }
  return out;
}

/** Brushes the buckets that lie inside [from, to] (ms) by dragging across them; returns each row's rate. */
async function brush(page: Page, across: { x: number; y: number; start: number; end: number }[], from: number, to: number): Promise<Map<string, number>> {
  const inside = across.filter((b) => b.start >= from && b.end <= to);
  expect(inside.length, `buckets inside ${new Date(from).toISOString()}–${new Date(to).toISOString()}`).toBeGreaterThan(1);
  await page.mouse.move(inside[0].x, inside[0].y);
  await page.mouse.down();
  await page.mouse.move(inside[inside.length - 1].x, inside[0].y, { steps: 4 });
  await page.mouse.up();
  const b = page.getByTestId('traffic-brush');
  await expect(b).not.toHaveAttribute('data-start', '');
  expect(Date.parse((await b.getAttribute('data-start'))!)).toBeGreaterThanOrEqual(from);
  expect(Date.parse((await b.getAttribute('data-end'))!)).toBeLessThanOrEqual(to);
  const rows = await page.getByTestId('traffic-row').evaluateAll((rs) => rs.map((r) => [r.getAttribute('data-name')!, Number(r.getAttribute('data-rate'))] as const));
  return new Map(rows);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test.describe('the key visualizer on the real cluster', () => {
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    // A history of a run before with this pid goes first: deleted once the server's recorder runs,
    // it would be made again under the recorder (which notices, but only at its next sample).
    const pre = new OpenSearchClient(configFromEnv());
    await pre.request('DELETE', `/${HISTORY}`, { okStatuses: [404] }).catch(() => undefined);
    await pre.close();
    base = await startServer();
    client = await ensureLiveIndex(base);
    const nodes = await client.request<unknown[]>('GET', '/_cat/nodes', { query: { format: 'json' } });
    const withPlugin = await client.request<{ component: string }[]>('GET', '/_cat/plugins', { query: { format: 'json' } });
    plugin = withPlugin.body.filter((p) => p.component === 'geoshard').length === nodes.body.length;
    if (plugin) await client.request('PUT', `/_search/pipeline/${PIPELINE}`, { body: searchPipeline(file.index) });
  });

  test.afterAll(async () => {
    await client?.request('DELETE', `/${HISTORY}`, { okStatuses: [404] }).catch(() => undefined);
    if (plugin) await client?.request('DELETE', `/_search/pipeline/${PIPELINE}`, { okStatuses: [404] }).catch(() => undefined);
    await client?.close();
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
  });

  test('shows a hot spot moving from San Francisco to New York in the right ranges and times; its split opens in Review', async ({ page }) => {
    test.setTimeout(180_000);
    expect(sfName).not.toBe(nyName); // the pattern needs two ranges
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/?tab=traffic`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    await expect(page.getByTestId('traffic-recorder')).toHaveAttribute('data-state', 'running');

    // A quiet sample or two first, then the pattern, then samples enough to close its last bucket.
    await new Promise((r) => setTimeout(r, 3 * INTERVAL_S * 1000));
    const sf = await phase(SF, sfName);
    const ny = await phase(NY, nyName);
    await new Promise((r) => setTimeout(r, 3 * INTERVAL_S * 1000));
    const sentRate = (p: { start: number; end: number; hot: number }) => (p.hot * 1000) / (p.end - p.start);

    const panel = page.getByTestId('traffic-panel');
    await expect(panel).toHaveAttribute('data-state', 'ready');
    const heat = page.getByTestId('traffic-heatmap');
    await expect(heat).toHaveAttribute('data-ranges', String(file.numberOfShards));
    await expect.poll(async () => Number(await heat.getAttribute('data-buckets')), { timeout: 30_000 }).toBeGreaterThanOrEqual(Math.floor((2 * PHASE_MS) / (INTERVAL_S * 1000)));
    // Both ranges stayed hot for three samples in a row: listed, with a split to offer.
    await expect(page.locator(`[data-testid="traffic-row"][data-name="${sfName}"]`)).toHaveAttribute('data-hot', 'true', { timeout: 30_000 });
    await expect(page.locator(`[data-testid="traffic-row"][data-name="${nyName}"]`)).toHaveAttribute('data-hot', 'true');

    const across = await bucketsAcross(page);
    const margin = INTERVAL_S * 1000;
    for (const [p, hot, other] of [[sf, sfName, nyName], [ny, nyName, sfName]] as const) {
      const rates = await brush(page, across, p.start + margin, p.end);
      const quiet = median([...rates.values()]);
      // The hot range served what the client sent it (one copy answers each search) plus its share of the background.
      expect(rates.get(hot)!, `${hot} during its hot spot`).toBeGreaterThan(0.6 * sentRate(p));
      expect(rates.get(hot)!, `${hot} during its hot spot`).toBeLessThan(1.4 * sentRate(p) + 1000 / BACKGROUND_EVERY_MS + 1);
      expect(rates.get(hot)!).toBe(Math.max(...rates.values()));
      expect(rates.get(hot)!).toBeGreaterThan(5 * quiet);
      expect(rates.get(other)!, `${other} while the hot spot is elsewhere`).toBeLessThan(0.25 * rates.get(hot)!);
    }

    // Pointing at New York's band in a New York bucket: with the plugin, its busiest cells, each
    // in the hot spot's covering, at about the rate sent (one search covers each of them).
    const hotCells = new Set([...router.cover(NY.lat, NY.lng, HOT_KM).ordinals].map((o) => cellToken(cellFromOrdinal(o))));
    const nyBucket = across.filter((b) => b.start >= ny.start + margin && b.end <= ny.end)[0];
    const hover = page.getByTestId('traffic-hover');
    // The mouse on a New York bucket, then the keyboard (the picture's arrow keys) to its band.
    await page.mouse.move(nyBucket.x, nyBucket.y);
    await heat.focus();
    for (let k = 0; k < file.numberOfShards; k++) await page.keyboard.press('ArrowUp');
    const nyIndex = router.shards.findIndex((x) => x.name === nyName);
    for (let k = 0; k < nyIndex; k++) await page.keyboard.press('ArrowDown');
    await expect(hover).toHaveAttribute('data-range', nyName);
    expect(Date.parse((await hover.getAttribute('data-start'))!)).toBe(nyBucket.start);
    if (plugin) {
      const listed = (await page.getByTestId('traffic-hover-cells').getAttribute('data-cells'))!.split(',').map((x) => x.split(':'));
      expect(listed.length).toBeGreaterThan(0);
      for (const [cell, perSecond] of listed) {
        expect(hotCells.has(cell), `${cell} in the covering of the hot spot`).toBe(true);
        expect(Number(perSecond)).toBeGreaterThan(0.5 * sentRate(ny));
        expect(Number(perSecond)).toBeLessThan(1.5 * sentRate(ny));
      }
    } else await expect(page.getByTestId('traffic-hover-cells')).toHaveCount(0);
    // The brush is still the New York stretch.
    await brush(page, across, ny.start + margin, ny.end);

    // The tab as a person meets it, on this real traffic (hover, brush, hot rows and the legend
    // shown): no axe violation at the desktop size and at a phone's, where nothing runs past the
    // screen's right edge.
    const axe = async (what: string) => {
      const { violations } = await new AxeBuilder({ page }).analyze();
      expect(violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`), what).toEqual([]);
    };
    await axe('the Traffic tab at 1280×800');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(panel).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const past = await panel.evaluate((el) => {
      const right = Math.min(el.getBoundingClientRect().right, window.innerWidth) + 0.5;
      return [...el.querySelectorAll('*')].filter((x) => {
        const r = x.getBoundingClientRect();
        return r.width > 0 && r.height > 0 && r.right > right;
      }).map((x) => `${x.tagName.toLowerCase()}${x.getAttribute('data-testid') ? `[${x.getAttribute('data-testid')}]` : ''} ${x.className}`);
    });
    expect(past, 'elements of the Traffic panel past its right edge or the phone screen').toEqual([]);
    await axe('the Traffic tab at 390×844');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The New York stretch on the globe: the Requests layer's workload becomes those searches,
    // its legend in real units per second.
    await page.getByTestId('traffic-to-globe').click();
    await expect(page.getByTestId('requests-source')).toContainText('cluster traffic', { timeout: 60_000 });
    const legend = page.getByTestId('requests-buckets');
    await expect(legend).toHaveAttribute('data-unit', plugin ? 'searches/s' : 'shard queries/s');
    if (plugin) {
      // The busiest cells, which every hot search covered, at about the rate sent: in the top bucket.
      const last = legend.locator('li[data-hi]').last();
      expect(Number(await last.getAttribute('data-hi'))).toBeGreaterThan(0.6 * sentRate(ny));
      expect(Number(await last.getAttribute('data-lo'))).toBeLessThan(1.4 * sentRate(ny));
    }

    // San Francisco's split, opened in Review as the candidate.
    await page.locator(`[data-testid="traffic-split"][data-name="${sfName}"]`).click();
    await expect(page.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('review-candidate')).toContainText(`split of "${sfName}"`, { timeout: 60_000 });
    await expect(page.getByTestId('review-candidate')).toContainText(`${file.numberOfShards + 1} shards`);
    expect(errors).toEqual([]);
  });
});
