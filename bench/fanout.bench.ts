/**
 * The fan-out map's compute time (src/app/lib/fanout.ts), on the bundled boundary file,
 * for the grids the explorer asks its worker for:
 *
 *   - the contiguous US at 0.5° (118 × 52 = 6,136 pixels) and at 0.25° (236 × 104 = 24,544);
 *   - a zoomed-in view of New York (4° × 2.5° at 200 × 125 = 25,000 pixels, ~2 km pixels);
 *
 * at 15 and 50 miles, by three methods that give identical counts (checked before timing):
 *   cover   the baseline: the full RegionCoverer covering at every pixel;
 *   fast    Router.shardsForCircle (the core's fast path) at every pixel;
 *   blocks  the map's method: blocks of pixels sandwiched between two circles, fast path
 *           only where a block straddles a boundary.
 * The baseline is too slow to run on whole grids in a benchmark run (about 30 s per US grid
 * at 50 mi), so it runs on every 16th pixel of the 0.5° US grid, with `fast` on the same
 * pixels in the same run: their ratio is per pixel. Whole-grid times are measured for
 * fast and blocks. The weighted one-shard share (21,905 cells of data/cells.csv) is timed too.
 *
 * Run alone: npx tsx bench/fanout.bench.ts [--quick]; `npm run bench` runs it via runBench.
 */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Router, KM_PER_MILE, parseCellsCsv } from '../src/core/index.ts';
import { computeFanoutGrid, computeFanoutShare, gridForBbox, gridLat, gridLng, weightsFromCells, type FanoutGrid } from '../src/core/index.ts';
import { measure, fmt } from './harness.ts';

export interface FanoutBenchRow {
  case: string;
  grid: string;
  pixels: number;
  radiusMi: number;
  /** ms per whole grid (blocks, fast), or per pixel sample (coverSample, fastSample). */
  blocksMs?: number;
  fastMs?: number;
  coverSampleMs?: number;
  fastSampleMs?: number;
  samplePixels?: number;
  /** fast vs cover, same pixels: coverSampleMs / fastSampleMs. */
  fastVsCover?: number;
  /** blocks vs fast, whole grid: fastMs / blocksMs. */
  blocksVsFast?: number;
  /** Whole-grid baseline estimated from the sample: coverSampleMs × pixels / samplePixels. */
  coverGridEstimateMs?: number;
  /** Share of pixels asking one shard. */
  onePixelShare: number;
}

export interface FanoutBenchResult {
  rows: FanoutBenchRow[];
  share: { radiusMi: number; points: number; blocksMs: number; fastMs: number; oneShard: number }[];
}

const US = { west: -125, south: 24, east: -66, north: 50 };
const NYC: FanoutGrid = { west: -76, south: 39.5, east: -72, north: 42, cols: 200, rows: 125 };

function same(a: Uint8Array, b: Uint8Array, what: string): void {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) throw new Error(`${what}: methods disagree at pixel ${k}: ${a[k]} vs ${b[k]}`);
}

/** runFanoutBench measures the fan-out map; minMs per measurement (the harness's minimum). */
export function runFanoutBench(root: string, quick = false): FanoutBenchResult {
  const router = new Router(JSON.parse(readFileSync(join(root, 'data/boundaries.json'), 'utf8')), 'data/boundaries.json');
  const minMs = quick ? 300 : 1500;
  const rows: FanoutBenchRow[] = [];
  const coarse = gridForBbox(US, 0.5);
  const fine = gridForBbox(US, 0.25);
  const label = (g: FanoutGrid, step?: number) => `${g.cols}×${g.rows}${step ? ` (${step}°)` : ''}`;
  for (const radiusMi of [15, 50]) {
    const km = radiusMi * KM_PER_MILE;
    // US at 0.5°: whole grid by blocks and fast; baseline on every 16th pixel, fast on the same pixels.
    const blocks = computeFanoutGrid(router, coarse, km, 'blocks');
    same(blocks, computeFanoutGrid(router, coarse, km, 'fast'), `US 0.5° at ${radiusMi} mi`);
    const sample: { lat: number; lng: number }[] = [];
    for (let k = 0; k < coarse.cols * coarse.rows; k += 16) sample.push({ lat: gridLat(coarse, Math.floor(k / coarse.cols)), lng: gridLng(coarse, k % coarse.cols) });
    for (const p of sample) {
      const a = router.cover(p.lat, p.lng, km).shards.length;
      const b = router.shardsAsked(p.lat, p.lng, km).length;
      if (a !== b) throw new Error(`fast path differs from the covering at ${p.lat},${p.lng} ${radiusMi} mi`);
    }
    const whole = measure({ blocks: () => computeFanoutGrid(router, coarse, km, 'blocks'), fast: () => computeFanoutGrid(router, coarse, km, 'fast') }, [0], minMs, 1);
    const per = measure(
      {
        cover: () => sample.forEach((p) => router.cover(p.lat, p.lng, km)),
        fast: () => sample.forEach((p) => router.shardsAsked(p.lat, p.lng, km)),
      },
      [0],
      minMs,
      1,
    );
    const pixels = coarse.cols * coarse.rows;
    rows.push({
      case: 'US',
      grid: label(coarse, 0.5),
      pixels,
      radiusMi,
      blocksMs: whole.blocks.msPerOp,
      fastMs: whole.fast.msPerOp,
      coverSampleMs: per.cover.msPerOp,
      fastSampleMs: per.fast.msPerOp,
      samplePixels: sample.length,
      fastVsCover: per.cover.msPerOp / per.fast.msPerOp,
      blocksVsFast: whole.fast.msPerOp / whole.blocks.msPerOp,
      coverGridEstimateMs: (per.cover.msPerOp * pixels) / sample.length,
      onePixelShare: blocks.filter((v) => v === 1).length / pixels,
    });
    // Finer and zoomed grids: blocks vs fast, whole grids.
    for (const [name, g, step] of quick ? ([['New York', NYC, undefined]] as const) : ([['US', fine, 0.25], ['New York', NYC, undefined]] as const)) {
      const b = computeFanoutGrid(router, g, km, 'blocks');
      same(b, computeFanoutGrid(router, g, km, 'fast'), `${name} at ${radiusMi} mi`);
      const t = measure({ blocks: () => computeFanoutGrid(router, g, km, 'blocks'), fast: () => computeFanoutGrid(router, g, km, 'fast') }, [0], minMs, 1);
      rows.push({
        case: name,
        grid: label(g, step),
        pixels: g.cols * g.rows,
        radiusMi,
        blocksMs: t.blocks.msPerOp,
        fastMs: t.fast.msPerOp,
        blocksVsFast: t.fast.msPerOp / t.blocks.msPerOp,
        onePixelShare: b.filter((v) => v === 1).length / b.length,
      });
    }
  }
  // The weighted one-shard share over every non-empty cell.
  const weights = weightsFromCells(parseCellsCsv(readFileSync(join(root, 'data/cells.csv'), 'utf8'), 'data/cells.csv'));
  const share: FanoutBenchResult['share'] = [];
  for (const radiusMi of [15, 50]) {
    const km = radiusMi * KM_PER_MILE;
    const s = computeFanoutShare(router, weights, km, 'blocks');
    const t = measure({ blocks: () => computeFanoutShare(router, weights, km, 'blocks'), fast: () => computeFanoutShare(router, weights, km, 'fast') }, [0], quick ? 1 : minMs, quick ? 0 : 1);
    share.push({ radiusMi, points: weights.lat.length, blocksMs: t.blocks.msPerOp, fastMs: t.fast.msPerOp, oneShard: s.oneShard });
  }
  return { rows, share };
}

export function printFanoutBench(r: FanoutBenchResult): void {
  console.log('\nFan-out map (shards asked at every pixel), identical counts checked before timing');
  console.log('case       grid               pixels  radius   blocks (map)   fast path     speed-up   1-shard pixels');
  for (const x of r.rows) {
    console.log(
      `${x.case.padEnd(9)}  ${x.grid.padEnd(16)}  ${String(x.pixels).padStart(7)}  ${String(x.radiusMi).padStart(3)} mi  ${fmt(x.blocksMs!).padStart(12)}  ${fmt(x.fastMs!).padStart(10)}  ${x.blocksVsFast!.toFixed(1).padStart(8)}x   ${(100 * x.onePixelShare).toFixed(1).padStart(6)}%`,
    );
  }
  console.log('\nBaseline (full covering at every pixel) vs fast path, on the same sample of the US 0.5° grid');
  console.log('radius   sample pixels   covering (baseline)   fast path   speed-up   covering, whole grid (est.)');
  for (const x of r.rows.filter((y) => y.coverSampleMs !== undefined)) {
    console.log(
      `${String(x.radiusMi).padStart(3)} mi   ${String(x.samplePixels).padStart(13)}   ${fmt(x.coverSampleMs!).padStart(19)}   ${fmt(x.fastSampleMs!).padStart(9)}   ${x.fastVsCover!.toFixed(1).padStart(7)}x   ${fmt(x.coverGridEstimateMs!).padStart(12)} (map: ${fmt(x.blocksMs!)}, ${(x.coverGridEstimateMs! / x.blocksMs!).toFixed(0)}x faster)`,
    );
  }
  console.log('\nWeighted one-shard share (restaurants of every non-empty cell)');
  for (const s of r.share) console.log(`${String(s.radiusMi).padStart(3)} mi: ${s.points} points, ${fmt(s.blocksMs)} (fast path at every point: ${fmt(s.fastMs)}); ${(100 * s.oneShard).toFixed(1)}% of searches ask one shard`);
}

/** The hook bench/run.ts calls. */
export function runBench(opts: { root: string; quick: boolean }): FanoutBenchResult {
  const r = runFanoutBench(opts.root, opts.quick);
  printFanoutBench(r);
  return r;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runBench({ root: join(dirname(fileURLToPath(import.meta.url)), '..'), quick: process.argv.includes('--quick') });
}
