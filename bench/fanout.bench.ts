/**
 * The fan-out map's compute time (src/core/fanoutGridJob.ts, fanoutShare.ts and fanoutField.ts, which the explorer's src/app/fanout/fanoutWorker.ts runs in a worker), on the bundled boundary file,
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
 * The map follows the radius slider with fields (FanoutFieldJob: per point the distances to
 * the nearest other shards up to 100 mi, so a radius is a threshold). For the grids the
 * explorer asks for (the world at 2°, and the view's grid at a quarter of a 1280 × 800 canvas's
 * pixels, 320 × 200, over the contiguous US and over New York), the same run measures:
 *   refine     computing the field once per view (what panning or zooming costs, in the worker);
 *   per frame  what one radius step of a drag costs on the main thread: the counts from the
 *              fields and the quads the scene draws (world + view, as FanoutMap builds them),
 *              mean and worst over a 1 → 100 mi drag of 60 steps;
 *   scratch    the counts at one radius from scratch (blocks, the map's previous method),
 * with the field's counts checked equal to the from-scratch counts (capped at 4) first.
 *
 * Run alone: npx tsx bench/fanout.bench.ts [--quick]; `npm run bench` runs it via runBench.
 */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Router, KM_PER_MILE, parseCellsCsv } from '../src/core/index.ts';
import { computeFanoutGrid } from '../src/core/fanoutGridJob.ts';
import { computeFanoutShare } from '../src/core/fanoutShare.ts';
import { gridForBbox, gridLat, gridLng, type FanoutGrid } from '../src/core/fanoutGrid.ts';
import { weightsFromCells } from '../src/core/fanoutWeights.ts';
import { computeFanoutField, fanoutFieldCounts } from '../src/core/fanoutField.ts';
import { fanoutQuads } from '../src/app/fanout/fanoutGeometry.ts';
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

export interface FanoutFieldRow {
  case: string;
  grid: string;
  points: number;
  /** ms to compute the field (the view's refine). */
  refineMs: number;
  /** ms per drag step on the main thread (counts + quads of this grid and the world's): mean and worst over the drag. */
  frameMeanMs: number;
  frameMaxMs: number;
  /** ms to compute the counts at 15 and 50 mi from scratch (blocks). */
  scratch15Ms: number;
  scratch50Ms: number;
}

export interface FanoutBenchResult {
  fields: FanoutFieldRow[];
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
  const fields = runFieldBench(router, quick);
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
  return { fields, rows, share };
}

const FIELD_MAX_KM = 100 * KM_PER_MILE;
const WORLD = gridForBbox({ west: -180, south: -90, east: 180, north: 90 }, 2);
const VIEWS: [string, FanoutGrid][] = [
  ['US view', { ...US, cols: 320, rows: 200 }],
  ['New York view', { ...NYC, cols: 320, rows: 200 }],
];

/** The slider's drag: 60 radii from 1 to 100 mi, km. */
const DRAG_KM = Array.from({ length: 60 }, (_, k) => (1 + (99 * k) / 59) * KM_PER_MILE);

function runFieldBench(router: Router, quick: boolean): FanoutFieldRow[] {
  const out: FanoutFieldRow[] = [];
  const time = (f: () => unknown) => {
    const t0 = performance.now();
    f();
    return performance.now() - t0;
  };
  const world = computeFanoutField(router, WORLD, FIELD_MAX_KM);
  for (const [name, g] of quick ? VIEWS.slice(1) : VIEWS) {
    for (const target of [WORLD, g]) {
      const field = target === WORLD ? world : computeFanoutField(router, g, FIELD_MAX_KM);
      for (const mi of [15, 50]) same(fanoutFieldCounts(field, mi * KM_PER_MILE), computeFanoutGrid(router, target, mi * KM_PER_MILE).map((v) => Math.min(v, 4)), `field of ${target === WORLD ? 'the world' : name} at ${mi} mi`);
    }
    // Warm, then the median of 3 refines.
    computeFanoutField(router, g, FIELD_MAX_KM);
    const refines = [0, 1, 2].map(() => time(() => computeFanoutField(router, g, FIELD_MAX_KM))).sort((a, b) => a - b);
    const field = computeFanoutField(router, g, FIELD_MAX_KM);
    const frames = DRAG_KM.map((km) =>
      time(() => {
        const v = fanoutFieldCounts(field, km);
        const w = fanoutFieldCounts(world, km);
        fanoutQuads(WORLD, w, g);
        fanoutQuads(g, v);
      }),
    );
    out.push({
      case: name,
      grid: `${g.cols}×${g.rows}`,
      points: g.cols * g.rows,
      refineMs: refines[1],
      frameMeanMs: frames.reduce((a, b) => a + b, 0) / frames.length,
      frameMaxMs: Math.max(...frames),
      scratch15Ms: time(() => computeFanoutGrid(router, g, 15 * KM_PER_MILE)),
      scratch50Ms: time(() => computeFanoutGrid(router, g, 50 * KM_PER_MILE)),
    });
  }
  const worldRefine = time(() => computeFanoutField(router, WORLD, FIELD_MAX_KM));
  out.push({
    case: 'World',
    grid: `${WORLD.cols}×${WORLD.rows} (2°)`,
    points: WORLD.cols * WORLD.rows,
    refineMs: worldRefine,
    frameMeanMs: NaN,
    frameMaxMs: NaN,
    scratch15Ms: time(() => computeFanoutGrid(router, WORLD, 15 * KM_PER_MILE)),
    scratch50Ms: time(() => computeFanoutGrid(router, WORLD, 50 * KM_PER_MILE)),
  });
  return out;
}

export function printFanoutBench(r: FanoutBenchResult): void {
  console.log('\nFan-out map following the radius: fields up to 100 mi (counts checked equal to from-scratch counts, capped at 4, first)');
  console.log('case           grid              points   refine (field)   per frame: mean / worst (1→100 mi)   from scratch at 15 / 50 mi   frame vs scratch');
  for (const x of r.fields) {
    const frame = Number.isNaN(x.frameMeanMs) ? '(in the views)'.padStart(30) : `${fmt(x.frameMeanMs)} / ${fmt(x.frameMaxMs)}`.padStart(30);
    const ratio = Number.isNaN(x.frameMeanMs) ? '' : `${(Math.min(x.scratch15Ms, x.scratch50Ms) / x.frameMaxMs).toFixed(0)}x (worst frame vs faster scratch)`;
    console.log(`${x.case.padEnd(13)}  ${x.grid.padEnd(16)}  ${String(x.points).padStart(6)}   ${fmt(x.refineMs).padStart(14)}   ${frame}   ${`${fmt(x.scratch15Ms)} / ${fmt(x.scratch50Ms)}`.padStart(26)}   ${ratio}`);
  }
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
