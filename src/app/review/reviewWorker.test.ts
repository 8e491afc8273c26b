import { describe, it, expect } from 'vitest';
import { createReviewApi, createReviewClient, REVIEW_WORKLOAD_CENTRES, REVIEW_WORKLOAD_SEED } from './reviewWorker';
import { portWorker } from '../shell/worker.testing';
import { Router, parseCellsCsv, cellToken, cellFromOrdinal, cellOrdinal, cellAt, CELLS_HEADER, type BoundaryFile } from '../../core/index';
import { searchWorkload } from '../../core/searchWorkload';
import { expectedFanout } from '../../core/expectedFanout';
import { fileWithCuts } from '../../core/testutil';

// A small cells file around three US cities, in key order.
const places = [
  { lat: 40.7128, lng: -74.006, restaurants: 40, dishes: 3000 },
  { lat: 41.8781, lng: -87.6298, restaurants: 25, dishes: 2000 },
  { lat: 34.0522, lng: -118.2437, restaurants: 30, dishes: 2500 },
  { lat: 47.6062, lng: -122.3321, restaurants: 5, dishes: 400 },
];
const rows = places.map((p) => ({ ...p, ordinal: cellOrdinal(cellAt(p.lat, p.lng)) })).sort((a, b) => a.ordinal - b.ordinal);
const CSV = [CELLS_HEADER, ...rows.map((r) => `${cellToken(cellFromOrdinal(r.ordinal))},${r.restaurants},${r.dishes}`)].join('\n') + '\n';
const cells = parseCellsCsv(CSV);
// Cuts right after two cities' cells (the next cell along the curve is a neighbour), so searches there ask two shards.
const fileA = fileWithCuts([rows[0].ordinal + 1, rows[2].ordinal + 1]);
const fileB = fileWithCuts([Math.floor((rows[1].ordinal + rows[2].ordinal) / 2)]);
const fileC = fileWithCuts([rows[1].ordinal, rows[3].ordinal]);

/** The cells as the geometry worker shares them: columns in key order. */
const columns = () => ({ tokens: cells.map((c) => c.token).join(','), ordinals: Int32Array.from(cells, (c) => c.ordinal), restaurants: Float64Array.from(cells, (c) => c.restaurants), dishes: Float64Array.from(cells, (c) => c.dishes) });

/** A worker double: the real review API served with comlink over a MessageChannel, counting the fan-outs the worker was asked for. */
function pair() {
  const counts = { fanout: 0 };
  const api = createReviewApi();
  const worker = portWorker({
    ...api,
    fanout(file: BoundaryFile) {
      counts.fanout++;
      return api.fanout(file);
    },
  });
  return { client: createReviewClient(() => worker), counts };
}

describe('the review worker', () => {
  it('sends the cells with restaurants and dishes apart, as the core parses them', async () => {
    const { client } = pair();
    expect(await client.cells(columns())).toEqual(cells);
  });

  it('computes the fan-out of the seeded 500-centre workload, equal to the core on the same workload', async () => {
    const { client } = pair();
    await client.cells(columns());
    const a = await client.fanout(fileA);
    const expected = expectedFanout(new Router(fileA), searchWorkload(cells, { seed: REVIEW_WORKLOAD_SEED, centres: REVIEW_WORKLOAD_CENTRES }), 1000);
    expect(a!.fanout).toEqual(expected);
    expect(a!.fanout.meanShards).toBeGreaterThan(1);
  });

  it('keeps only the latest wish while one is computed, and answers repeats from its cache', async () => {
    const { client, counts } = pair();
    await client.cells(columns());
    const [a, b, c] = await Promise.all([client.fanout(fileA), client.fanout(fileB), client.fanout(fileC)]);
    expect(a!.fanout.numberOfShards).toBe(3);
    expect(b).toBeNull(); // replaced by fileC before the worker was free
    expect(c!.fanout.numberOfShards).toBe(3);
    expect(counts.fanout).toBe(2);
    const again = await client.fanout(fileA);
    expect(again).toBe(a);
    expect(counts.fanout).toBe(2);
    expect(client.cached(fileC.hash)).toBe(c);
  });

  // A hand-checkable request workload: the same 5 km circle at New York twice, weights 1 and 2.
  const NYC = places[0];
  const WORKLOAD = `lat,lng,radius,timestamp,weight\n${NYC.lat},${NYC.lng},5km,,1\n${NYC.lat},${NYC.lng},5km,2026-11-24T12:05:00Z,2\n`;

  it('rates every cell of a workload’s circles with the summed weight of the searches covering it', async () => {
    const { client } = pair();
    const w = await client.workload(WORKLOAD, 'two.csv');
    const cover = new Router(fileA).cover(NYC.lat, NYC.lng, 5);
    expect(w).toMatchObject({ source: 'two.csv', searches: 2, weight: 3 });
    expect([...w.ordinals]).toEqual([...cover.ordinals]);
    expect([...w.rates]).toEqual(Array.from(cover.ordinals, () => 3));
    expect(w.corners).toHaveLength(8 * cover.ordinals.length);
  });

  it('rejects a bad workload file with the parser’s message naming the line, the field and the value', async () => {
    const { client } = pair();
    await expect(client.workload('40.7,-74.0,5km\n40.7,-200,5km\n', 'bad.csv')).rejects.toThrow('line 2: lng "-200" is invalid: expected a longitude in degrees in [-180, 180]');
  });

  it('finds the hot range and the load before/after over the workload: all load in the shard holding New York’s documents', async () => {
    const { client } = pair();
    await client.cells(columns());
    await client.workload(WORKLOAD, 'two.csv');
    // Only New York's cell has documents among the covered cells: load 3 × (40 + 3,000) = 9,120, three times the mean of 3 shards.
    const a = new Router(fileA);
    const c = new Router(fileC);
    const nyc = cellOrdinal(cellAt(NYC.lat, NYC.lng));
    const hot = await client.hotspots(fileA, 2);
    expect(hot.hash).toBe(fileA.hash);
    expect(hot.hotspots.map((h) => [h.name, h.load, h.share])).toEqual([[a.shards[a.indexOfOrdinal(nyc)].name, 9120, 1]]);
    expect(hot.hotspots[0].overMean).toBeCloseTo(3, 12);
    const d = (await client.loadDiff(fileA, fileC))!;
    expect([d.current, d.candidate]).toEqual([fileA.hash, fileC.hash]);
    expect(d.diff.hottest.before[0]).toMatchObject({ name: a.shards[a.indexOfOrdinal(nyc)].name, load: 9120 });
    expect(d.diff.hottest.after[0]).toMatchObject({ name: c.shards[c.indexOfOrdinal(nyc)].name, load: 9120 });
    // Both searches ask the shards the router's own covering asks.
    expect(d.diff.fanout.current.meanShards).toBe(a.cover(NYC.lat, NYC.lng, 5).shards.length);
    expect(d.diff.fanout.candidate.meanShards).toBe(c.cover(NYC.lat, NYC.lng, 5).shards.length);
  });

  it('keeps only the latest load wish while one is computed', async () => {
    const { client } = pair();
    await client.cells(columns());
    await client.workload(WORKLOAD, 'two.csv');
    const [x, y, z] = await Promise.all([client.loadDiff(fileA, fileB), client.loadDiff(fileA, fileC), client.loadDiff(fileA, fileB)]);
    expect(x!.candidate).toBe(fileB.hash);
    expect(y).toBeNull();
    expect(z!.candidate).toBe(fileB.hash);
  });

  it('rejects hot ranges asked before a workload is loaded, naming what to do', async () => {
    const { client } = pair();
    await client.cells(columns());
    await expect(client.hotspots(fileA, 2)).rejects.toThrow('no request workload loaded: call workload(text, source) first');
  });

  it('rejects a fan-out asked before the cells arrived with the worker’s message, and serves once they have', async () => {
    const { client } = pair();
    await expect(client.fanout(fileA)).rejects.toThrow('no cells loaded: call cells(columns) first');
    expect(await client.cells(columns())).toHaveLength(cells.length);
    expect((await client.fanout(fileA))!.fanout.numberOfShards).toBe(3);
  });
});
