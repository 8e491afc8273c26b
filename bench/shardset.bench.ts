/**
 * The shard set of a search circle: the fast path (Router.shardsForCircle, a walk of
 * the cell hierarchy against the shard ranges) vs the baseline (s2js's RegionCoverer at
 * min = max level 10, then a shard lookup per cell), on the same centres, same run.
 * Every result is checked to be identical before timing.
 */
import { readFileSync } from 'node:fs';
import { Router, KM_PER_MILE } from '../src/core/index.ts';
import { measure, fmt } from './harness.ts';

export interface ShardSetRow {
  radiusMi: number;
  centres: number;
  meanCells: number;
  meanShards: number;
  baselineMs: number;
  fastMs: number;
  ratio: number;
}

export function runShardSetBench(boundariesPath: string, citiesPath: string, minMs = 1500): ShardSetRow[] {
  const router = new Router(JSON.parse(readFileSync(boundariesPath, 'utf8')), boundariesPath);
  const cities = (JSON.parse(readFileSync(citiesPath, 'utf8')) as { name: string; country: string; lat: number; lng: number }[]).filter((c) => c.country === 'US');
  const rows: ShardSetRow[] = [];
  for (const radiusMi of [1, 15, 50, 200]) {
    const km = radiusMi * KM_PER_MILE;
    // Big circles are slow on the baseline: fewer centres keep the run short.
    const centres = radiusMi >= 200 ? cities.slice(0, 8) : radiusMi >= 50 ? cities.slice(0, 20) : cities;
    let cells = 0;
    let shards = 0;
    for (const c of centres) {
      const slow = router.cover(c.lat, c.lng, km);
      const fast = router.shardsAsked(c.lat, c.lng, km);
      const want = slow.shards.map((s) => s.index);
      if (JSON.stringify(fast) !== JSON.stringify(want)) throw new Error(`fast path differs at ${c.name} ${radiusMi} mi: ${fast} vs ${want}`);
      cells += slow.ordinals.length;
      shards += want.length;
    }
    const t = measure(
      {
        baseline: (c) => router.cover(c.lat, c.lng, km).shards,
        fast: (c) => router.shardsAsked(c.lat, c.lng, km),
      },
      centres,
      minMs,
      radiusMi >= 200 ? 1 : 3,
    );
    rows.push({
      radiusMi,
      centres: centres.length,
      meanCells: cells / centres.length,
      meanShards: shards / centres.length,
      baselineMs: t.baseline.msPerOp,
      fastMs: t.fast.msPerOp,
      ratio: t.baseline.msPerOp / t.fast.msPerOp,
    });
  }
  return rows;
}

export function printShardSetRows(rows: ShardSetRow[]): void {
  console.log('\nShard set of a circle: fast path vs fixed-level RegionCoverer covering (identical results checked)');
  console.log('radius   centres  mean cells  mean shards   covering (baseline)   fast path     speed-up');
  for (const r of rows) {
    console.log(
      `${String(r.radiusMi).padStart(4)} mi  ${String(r.centres).padStart(7)}  ${r.meanCells.toFixed(0).padStart(10)}  ${r.meanShards.toFixed(2).padStart(11)}   ${fmt(r.baselineMs).padStart(19)}   ${fmt(r.fastMs).padStart(9)}   ${r.ratio.toFixed(1).padStart(7)}x`,
    );
  }
}
