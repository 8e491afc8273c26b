import { describe, it, expect } from 'vitest';
import { createFanoutApi, createFanoutClient, type FanoutGridResult, type FanoutShareResult, type FanoutProgress } from './fanoutWorker';
import { portWorker } from '../shell/worker.testing';
import { Router, cellOrdinal, parseToken, KM_PER_MILE } from '../../core/index';
import { gridForBbox, type FanoutGrid } from '../../core/fanoutGrid';
import { weightsFromCities } from '../../core/fanoutWeights';
import { computeFanoutShare } from '../../core/fanoutShare';
import type { FanoutMethod } from '../../core/fanoutSandwich';
import { fileWithCuts, expectedGridCounts } from '../../core/testutil';


/**
 * The real fan-out API served with comlink over a MessageChannel (structured
 * clones, transfers, asynchronous delivery), watched from the worker's side:
 * what each grid and share call resolved to (null = dropped), in call order,
 * the counts buffers it returned, and the progress it reported per call.
 */
function workerPair() {
  const api = createFanoutApi();
  const grids: (FanoutGridResult | null)[] = [];
  const gridCalls: { progress: [number, number][] }[] = [];
  const shares: (FanoutShareResult | null)[] = [];
  const transferred: ArrayBuffer[] = [];
  const worker = portWorker({
    ...api,
    grid(radiusKm: number, grid: FanoutGrid, method?: FanoutMethod, onProgress?: FanoutProgress) {
      const call = { progress: [] as [number, number][] };
      const k = gridCalls.push(call) - 1;
      const watched: FanoutProgress = (done, total) => {
        call.progress.push([done, total]);
        return onProgress?.(done, total);
      };
      return api.grid(radiusKm, grid, method, watched).then((r) => {
        grids[k] = r;
        if (r) transferred.push(r.counts.buffer as ArrayBuffer);
        return r;
      });
    },
    share(radiusKm: number, method?: FanoutMethod) {
      return api.share(radiusKm, method).then((r) => (shares.push(r), r));
    },
  });
  return { worker, grids, gridCalls, shares, transferred };
}

describe('fan-out worker protocol', () => {
  const file = fileWithCuts([cellOrdinal(parseToken('808581')) + 3, cellOrdinal(parseToken('808581')) - 20, 4_000_000]);
  const router = new Router(file);
  const g: FanoutGrid = { west: -123, south: 37.2, east: -121.8, north: 38.2, cols: 16, rows: 12 };

  it('validates the file, then answers a grid with the counts the core computes, its buffer transferred', async () => {
    const { worker, grids, transferred } = workerPair();
    const client = createFanoutClient(() => worker);
    expect(await client.init(file)).toEqual({ numberOfShards: 4, hash: file.hash, weightPoints: 0 });
    const progress: number[] = [];
    const r = await client.grid(20, g, { onProgress: (d) => progress.push(d) });
    expect(r).not.toBeNull();
    expect(r!.counts).toBeInstanceOf(Uint8Array);
    expect(Array.from(r!.counts)).toEqual(expectedGridCounts(router, g, 20));
    expect(r!.pixels.reduce((a, b) => a + b, 0)).toBe(g.cols * g.rows);
    expect(r).toMatchObject({ radiusKm: 20, grid: g, method: 'blocks' });
    expect(grids.filter((x) => x !== null)).toHaveLength(1);
    // The worker's copy was moved, not copied: its buffer is detached (length 0) after posting.
    expect(transferred).toHaveLength(1);
    expect(transferred[0].byteLength).toBe(0);
    expect(progress.every((d) => d > 0 && d <= g.cols * g.rows)).toBe(true);
  });

  it('drops a stale grid request when a newer one arrives', async () => {
    const { worker, grids, gridCalls } = workerPair();
    const client = createFanoutClient(() => worker);
    await client.init(file);
    // The first request is slow (the full covering at every one of 3,600 pixels); the second supersedes it.
    const big: FanoutGrid = { ...g, cols: 60, rows: 60 };
    const first = client.grid(40, big, { method: 'cover' });
    await new Promise((r) => setTimeout(r, 40));
    const second = client.grid(20, g);
    expect(await first).toBeNull();
    const r = await second;
    expect(Array.from(r!.counts)).toEqual(expectedGridCounts(router, g, 20));
    // In the worker, the first call was dropped unfinished (resolved null) and only the second was computed.
    expect(grids).toHaveLength(2);
    expect(grids[0]).toBeNull();
    expect(grids[1]).not.toBeNull();
    expect(gridCalls[0].progress.some(([done, total]) => done < total)).toBe(true);
  });

  it('cancels on request and reports errors naming the problem', async () => {
    const { worker } = workerPair();
    const client = createFanoutClient(() => worker);
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
    const { worker, shares } = workerPair();
    const client = createFanoutClient(() => worker);
    const pts = Array.from({ length: 40 }, (_, k) => ({ lat: 37.3 + (k % 8) * 0.1, lng: -122.6 + Math.floor(k / 8) * 0.2, population: k + 1 }));
    const weights = weightsFromCities(pts);
    expect((await client.init(file, weights)).weightPoints).toBe(40);
    const s = await client.share(25);
    expect(s).toEqual(computeFanoutShare(router, weights, 25, 'fast'));
    expect(await client.share(25)).toEqual(s);
    expect(shares.map((m) => m?.cached)).toEqual([false, true]);
  });
});
