import { describe, it, expect } from 'vitest';
import { createReviewApi, createReviewClient, REVIEW_WORKLOAD_CENTRES, REVIEW_WORKLOAD_SEED } from './reviewWorker';
import { portWorker } from '../shell/worker.testing';
import { searchWorkload, expectedFanout, Router, parseCellsCsv, cellToken, cellFromOrdinal, cellOrdinal, cellAt, CELLS_HEADER, type BoundaryFile } from '../../core/index';
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

  it('rejects a fan-out asked before the cells arrived with the worker’s message, and serves once they have', async () => {
    const { client } = pair();
    await expect(client.fanout(fileA)).rejects.toThrow('no cells loaded: call cells(columns) first');
    expect(await client.cells(columns())).toHaveLength(cells.length);
    expect((await client.fanout(fileA))!.fanout.numberOfShards).toBe(3);
  });
});
