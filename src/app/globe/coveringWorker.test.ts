import { describe, it, expect } from 'vitest';
import { computeCovering, routeOfAnswer, createCoveringApi, createCoveringClient, RESTART_AFTER_MS, type CoveringAnswer } from './coveringWorker';
import { portWorker } from '../shell/worker.testing';
import { Router, parseCellsCsv, cellAt, cellOrdinal, cellFromOrdinal, KM_PER_MILE } from '../../core/index';
import { cellVertices } from '../../core/cells';
import { weightsFromCells } from '../../core/fanoutWeights';
import { fileWithCuts, mulberry32, randomPoint } from '../../core/testutil';

const ny = cellOrdinal(cellAt(40.7143, -74.006));
const file = fileWithCuts([ny - 40, ny + 3, 3_000_000]);
const router = new Router(file);
const RAD = Math.PI / 180;

describe('covering computation', () => {
  it('equals Router.cover on seeded random circles, with each cell’s corners in radians', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 12; i++) {
      const p = randomPoint(rand);
      const km = 1 + rand() * 80;
      const a = computeCovering(router, p.lat, p.lng, km);
      const route = router.cover(p.lat, p.lng, km);
      expect(routeOfAnswer(a)).toEqual(route);
      expect(Array.from(a.ordinals)).toEqual(Array.from(route.ordinals));
      const k = Math.floor(rand() * route.ordinals.length);
      const v = cellVertices(cellFromOrdinal(route.ordinals[k]));
      for (let j = 0; j < 4; j++) {
        expect(a.corners[8 * k + 2 * j]).toBeCloseTo(v[j].lat * RAD, 6);
        expect(a.corners[8 * k + 2 * j + 1]).toBeCloseTo(v[j].lng * RAD, 6);
      }
    }
  });

  it('asks several shards for a circle across the cuts and names them in key order', () => {
    const a = computeCovering(router, 40.7143, -74.006, 50 * KM_PER_MILE);
    expect(a.shards.length).toBeGreaterThan(1);
    expect(a.routing).toBe(a.shards.map((s) => s.name).join(','));
    expect(a.shards.reduce((n, s) => n + s.cells, 0)).toBe(a.ordinals.length);
  });
});

/** A worker double: the real covering API served with comlink over a MessageChannel; log records the radii the worker was asked to cover. */
function fakeWorker(log: number[]) {
  const api = createCoveringApi();
  return portWorker({
    ...api,
    cover(lat: number, lng: number, radiusKm: number) {
      log.push(radiusKm);
      return api.cover(lat, lng, radiusKm);
    },
  });
}

const settle = () => new Promise((r) => setTimeout(r, 30));
/** Waits (polling) until ok() holds: comlink's round trips take longer on a busy machine. */
const until = async (ok: () => boolean, ms = 10_000) => {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
  await settle(); // and nothing more arrives
};

describe('covering client', () => {
  it('keeps one request in flight and sends only the latest wish when the answer arrives', async () => {
    const log: number[] = [];
    const answers: [CoveringAnswer, boolean][] = [];
    const client = createCoveringClient(() => fakeWorker(log), file, (a, still) => answers.push([a, still]), () => {});
    client.want({ lat: 40.7143, lng: -74.006, radiusKm: 10 });
    client.want({ lat: 40.7143, lng: -74.006, radiusKm: 20 });
    client.want({ lat: 40.7143, lng: -74.006, radiusKm: 30 });
    await until(() => answers.length >= 2);
    expect(log).toEqual([10, 30]);
    expect(answers.map(([a, still]) => [a.radiusKm, still])).toEqual([
      [10, false],
      [30, true],
    ]);
    expect(answers[1][0].routing).toBe(router.cover(40.7143, -74.006, 30).routing);
    client.dispose();
  });

  it('replaces a worker stuck on a stale request that has run too long', async () => {
    const log: number[] = [];
    const workers: ReturnType<typeof fakeWorker>[] = [];
    let t = 0;
    const answers: number[] = [];
    const client = createCoveringClient(
      () => {
        const w = fakeWorker(log);
        workers.push(w);
        return w;
      },
      file,
      (a) => answers.push(a.radiusKm),
      () => {},
      () => t,
    );
    client.want({ lat: 1, lng: 2, radiusKm: 5 });
    t = RESTART_AFTER_MS + 1;
    client.want({ lat: 1, lng: 2, radiusKm: 6 });
    await until(() => answers.length >= 1);
    expect(workers).toHaveLength(2);
    expect(workers[0].terminated).toBe(true);
    expect(answers).toEqual([6]);
    client.dispose();
  });

  it('reports a bad circle with the core’s message and keeps serving', async () => {
    const log: number[] = [];
    const errors: string[] = [];
    const answers: number[] = [];
    const client = createCoveringClient(() => fakeWorker(log), file, (a) => answers.push(a.radiusKm), (m) => errors.push(m));
    client.want({ lat: 1, lng: 2, radiusKm: 5000 });
    await until(() => errors.length >= 1);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/radius 5000 km is out of range/);
    client.want({ lat: 1, lng: 2, radiusKm: 5 });
    await until(() => answers.length >= 1);
    expect(answers).toEqual([5]);
    client.dispose();
  });
});

describe('worked searches in a worker', () => {
  it('returns the core table for every city at every radius and ends its worker', async () => {
    const { workedSearches, parseRadii } = await import('../../core/searches');
    const { runWorkedSearches } = await import('./coveringWorker');
    const cities = [
      { name: 'New York', state: 'NY', lat: 40.7143, lng: -74.006 },
      { name: 'Nowhere', state: '', lat: -10, lng: 20 },
    ];
    const radii = parseRadii('5,50');
    let w: ReturnType<typeof fakeWorker> | null = null;
    const job = runWorkedSearches(() => (w = fakeWorker([])), file, cities, radii);
    const { rows } = await job.rows;
    expect(rows).toEqual(workedSearches(router, cities, radii));
    expect(w!.terminated).toBe(true);
  });

  it('rejects naming the city when a centre is invalid', async () => {
    const { parseRadii } = await import('../../core/searches');
    const { runWorkedSearches } = await import('./coveringWorker');
    const job = runWorkedSearches(() => fakeWorker([]), file, [{ name: 'Bad', state: '', lat: 91, lng: 0 }], parseRadii('5'));
    await expect(job.rows).rejects.toThrow(/city "Bad"/);
  });
});

describe('fan-out weights in a worker', () => {
  const csv = 'token,restaurants,dishes\n89c259,120,9000\n89c25b,3,200\n';
  const columns = () => {
    const cells = parseCellsCsv(csv, 'cells');
    return { ordinals: Int32Array.from(cells, (c) => c.ordinal), restaurants: Float64Array.from(cells, (c) => c.restaurants) };
  };

  it('puts each non-empty cell’s restaurants at its centre, as weightsFromCells does, leaving the shared columns intact', async () => {
    const { loadFanoutWeights } = await import('./coveringWorker');
    const shared = columns();
    const w = await loadFanoutWeights(() => fakeWorker([]), shared);
    const expected = weightsFromCells(parseCellsCsv(csv, 'cells'));
    expect(Array.from(w.weight)).toEqual([120, 3]);
    expect(Array.from(w.lat)).toEqual(Array.from(expected.lat));
    expect(Array.from(w.lng)).toEqual(Array.from(expected.lng));
    // The columns are the page's one parse of the cells file: copied to the worker, never transferred away.
    expect(Array.from(shared.restaurants)).toEqual([120, 3]);
  });

  it('rejects with the worker’s message when the columns are not parallel', async () => {
    const { loadFanoutWeights } = await import('./coveringWorker');
    const bad = { ...columns(), restaurants: new Float64Array(1) };
    await expect(loadFanoutWeights(() => fakeWorker([]), bad)).rejects.toThrow('cells: 2 ordinals but 1 restaurant counts');
  });
});
