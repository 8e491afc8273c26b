/**
 * The fan-out map as quads for the kit's cell layer (globe/cellLayer.ts): each
 * grid pixel asking 2, 3 or 4+ shards becomes a quad given by its four corners
 * (runs of equal pixels along a row merged, up to MAX_RUN_DEG wide so chords
 * stay on the sphere), with its bucket; the layer groups them by color. The
 * quads are no S2 cells: they carry no ordinal. Pixels asking one shard are
 * not drawn: the shards show through.
 */
import { gridWidthDeg, type FanoutGrid, type FanoutBbox } from '../../core/fanoutGrid.ts';

const RAD = Math.PI / 180;

/** Widest merged run of pixels, degrees of longitude. */
export const MAX_RUN_DEG = 2;

/** A grid's quads: corners (8 floats a quad: (lat, lng) radians of SW, SE, NE, NW) and each quad's bucket (bucketOf). */
export interface GridQuads {
  corners: Float32Array;
  buckets: Uint8Array;
}

/** bucketOf returns 0, 1, 2 for counts 2, 3, 4+; −1 for 0 or 1 (not drawn). */
export function bucketOf(count: number): number {
  return count <= 1 ? -1 : Math.min(count, 4) - 2;
}

/** inside tells whether [w, e] × [s, n] (degrees, w and e unwrapped with w < e) lies inside a bbox (west > east crosses the antimeridian). */
function inside(b: FanoutBbox, w: number, e: number, s: number, n: number): boolean {
  if (s < b.south || n > b.north) return false;
  const width = gridWidthDeg(b);
  const off = (((w - b.west) % 360) + 360) % 360;
  return off + (e - w) <= width + 1e-9;
}

/**
 * fanoutQuads turns a grid's counts (row-major, row 0 south) into quads,
 * west to east and south to north, each with its bucket (2, 3, 4+). Pixels
 * wholly inside `skip` (the detail grid's box, drawn on top) are left out.
 */
export function fanoutQuads(grid: FanoutGrid, counts: Uint8Array, skip: FanoutBbox | null = null): GridQuads {
  const pw = gridWidthDeg(grid) / grid.cols;
  const ph = (grid.north - grid.south) / grid.rows;
  const maxRun = Math.max(1, Math.floor(MAX_RUN_DEG / pw));
  // Collect runs first: [west, east, south, north] degrees and the bucket.
  const runs: number[] = [];
  const buckets: number[] = [];
  for (let j = 0; j < grid.rows; j++) {
    const s = grid.south + j * ph;
    const n = s + ph;
    let i = 0;
    while (i < grid.cols) {
      const b = bucketOf(counts[j * grid.cols + i]);
      let k = i + 1;
      while (k < grid.cols && k - i < maxRun && bucketOf(counts[j * grid.cols + k]) === b) k++;
      const w = grid.west + i * pw;
      const e = grid.west + k * pw;
      if (b >= 0 && !(skip && inside(skip, w, e, s, n))) runs.push(w, e, s, n), buckets.push(b);
      i = k;
    }
  }
  const corners = new Float32Array(2 * runs.length);
  for (let q = 0; q < buckets.length; q++) {
    const [w, e, s, n] = [runs[4 * q] * RAD, runs[4 * q + 1] * RAD, runs[4 * q + 2] * RAD, runs[4 * q + 3] * RAD];
    // Around the quad: SW, SE, NE, NW.
    corners.set([s, w, s, e, n, e, n, w], 8 * q);
  }
  return { corners, buckets: Uint8Array.from(buckets) };
}
