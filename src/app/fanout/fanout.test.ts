import { describe, it, expect } from 'vitest';
import { serveFanout, createFanoutClient, type FanoutScope, type FanoutWorkerLike, type FanoutResponse, type FanoutRequest } from './fanout';
import { Router, cellOrdinal, parseToken, gridForBbox, weightsFromCities, computeFanoutShare, KM_PER_MILE, type FanoutGrid } from '../../core/index';
import { fileWithCuts } from '../../core/testutil';

/** The pixel centre as the grid's doc comment defines it: row 0 south, column 0 west, longitudes wrapped to [-180, 180). */
function pixel(g: FanoutGrid, i: number, j: number) {
  const width = g.east > g.west ? g.east - g.west : g.east - g.west + 360;
  let lng = g.west + ((i + 0.5) * width) / g.cols;
  if (lng >= 180) lng -= 360;
  return { lat: g.south + ((j + 0.5) * (g.north - g.south)) / g.rows, lng };
}

/** The count at every pixel, from the full covering (independent of the fan-out code). */
function expectedCounts(router: Router, g: FanoutGrid, radiusKm: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < g.rows; j++) {
    for (let i = 0; i < g.cols; i++) {
      const p = pixel(g, i, j);
      out.push(Math.min(255, router.cover(p.lat, p.lng, radiusKm).shards.length));
    }
  }
  return out;
}

/** A worker and its scope joined by structured clones, delivered asynchronously like postMessage. */
function workerPair() {
  const toWorker: ((e: { data: FanoutRequest }) => void)[] = [];
  const toMain: ((e: { data: FanoutResponse }) => void)[] = [];
  const seen: FanoutResponse[] = [];
  const transferred: { type: string; buffers: Transferable[] }[] = [];
  const scope: FanoutScope = {
    postMessage(msg, transfer) {
      const data = structuredClone(msg, { transfer: transfer ?? [] });
      seen.push(data);
      if (transfer?.length) transferred.push({ type: msg.type, buffers: transfer });
      setTimeout(() => toMain.forEach((f) => f({ data })), 0);
    },
    addEventListener: (_t, f) => void toWorker.push(f),
  };
  const worker: FanoutWorkerLike = {
    postMessage(msg) {
      const data = structuredClone(msg);
      setTimeout(() => toWorker.forEach((f) => f({ data })), 0);
    },
    addEventListener: (_t, f) => void toMain.push(f),
  };
  serveFanout(scope);
  return { worker, seen, transferred };
}

describe('fan-out worker protocol', () => {
  const file = fileWithCuts([cellOrdinal(parseToken('808581')) + 3, cellOrdinal(parseToken('808581')) - 20, 4_000_000]);
  const router = new Router(file);
  const g: FanoutGrid = { west: -123, south: 37.2, east: -121.8, north: 38.2, cols: 16, rows: 12 };

  it('validates the file, then answers a grid with the counts the core computes, its buffer transferred', async () => {
    const { worker, seen, transferred } = workerPair();
    const client = createFanoutClient(worker);
    expect(await client.init(file)).toEqual({ numberOfShards: 4, hash: file.hash, weightPoints: 0 });
    const progress: number[] = [];
    const r = await client.grid(20, g, { onProgress: (d) => progress.push(d) });
    expect(r).not.toBeNull();
    expect(r!.counts).toBeInstanceOf(Uint8Array);
    expect(Array.from(r!.counts)).toEqual(expectedCounts(router, g, 20));
    expect(r!.pixels.reduce((a, b) => a + b, 0)).toBe(g.cols * g.rows);
    expect(r).toMatchObject({ radiusKm: 20, grid: g, method: 'blocks' });
    expect(seen.filter((m) => m.type === 'grid')).toHaveLength(1);
    // The worker's copy was moved, not copied: its buffer is detached (length 0) after posting.
    expect(transferred).toHaveLength(1);
    expect(transferred[0].type).toBe('grid');
    expect((transferred[0].buffers[0] as ArrayBuffer).byteLength).toBe(0);
    expect(progress.every((d) => d > 0 && d <= g.cols * g.rows)).toBe(true);
  });

  it('drops a stale grid request when a newer one arrives', async () => {
    const { worker, seen } = workerPair();
    const client = createFanoutClient(worker);
    await client.init(file);
    // The first request is slow (the full covering at every one of 3,600 pixels); the second supersedes it.
    const big: FanoutGrid = { ...g, cols: 60, rows: 60 };
    const first = client.grid(40, big, { method: 'cover' });
    await new Promise((r) => setTimeout(r, 40));
    const second = client.grid(20, g);
    expect(await first).toBeNull();
    const r = await second;
    expect(Array.from(r!.counts)).toEqual(expectedCounts(router, g, 20));
    const firstId = 1; // the client numbers requests from 1
    expect(seen.some((m) => m.type === 'cancelled' && m.id === firstId)).toBe(true);
    expect(seen.filter((m) => m.type === 'grid').map((m) => (m as { id: number }).id)).toEqual([2]);
    expect(seen.some((m) => m.type === 'progress' && m.id === firstId && m.done < m.total)).toBe(true);
  });

  it('cancels on request and reports errors naming the problem', async () => {
    const { worker } = workerPair();
    const client = createFanoutClient(worker);
    await expect(client.grid(20, g)).rejects.toThrow(/grid request before init/);
    await expect(client.init({ ...file, hash: '0'.repeat(64) })).rejects.toThrow(/hash: .* does not match the content/);
    await client.init(file);
    await expect(client.grid(0, g)).rejects.toThrow(/radius 0 km is out of range/);
    await expect(client.grid(5, { ...g, cols: 0 })).rejects.toThrow(/grid\.cols 0 is invalid/);
    await expect(client.share(5)).rejects.toThrow(/share request without weights/);
    const p = client.grid(40, { ...g, cols: 60, rows: 60 }, { method: 'cover' });
    client.cancel();
    expect(await p).toBeNull();
  });

  it('computes the weighted share once per radius and answers repeats from its cache', async () => {
    const { worker, seen } = workerPair();
    const client = createFanoutClient(worker);
    const pts = Array.from({ length: 40 }, (_, k) => ({ lat: 37.3 + (k % 8) * 0.1, lng: -122.6 + Math.floor(k / 8) * 0.2, population: k + 1 }));
    const weights = weightsFromCities(pts);
    expect((await client.init(file, weights)).weightPoints).toBe(40);
    const s = await client.share(25);
    expect(s).toEqual(computeFanoutShare(router, weights, 25, 'fast'));
    expect(await client.share(25)).toEqual(s);
    const shares = seen.filter((m) => m.type === 'share') as Extract<FanoutResponse, { type: 'share' }>[];
    expect(shares.map((m) => m.cached)).toEqual([false, true]);
  });
});
