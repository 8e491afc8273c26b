/**
 * The fan-out map as geometry: each grid pixel asking 2, 3 or 4+ shards
 * becomes a quad (runs of equal pixels along a row merged, up to MAX_RUN_DEG
 * wide so chords stay on the sphere), in the same vertex layout as the
 * covering's cells (globe/coveringGeometry.ts), one buffer set per bucket. Pixels
 * asking one shard are not drawn: the shards show through.
 */
import { gridWidthDeg, type FanoutGrid, type FanoutBbox } from '../../core/fanoutGrid.ts';
import { cellBuffers, writeCells, FILL_VERTS, type CellBuffers } from '../globe/coveringGeometry';

const RAD = Math.PI / 180;

/** Widest merged run of pixels, degrees of longitude. */
export const MAX_RUN_DEG = 2;

/** Quads of one bucket: buffers and how many quads they hold. */
export interface BucketQuads {
  buffers: CellBuffers;
  quads: number;
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
 * fanoutQuads turns a grid's counts (row-major, row 0 south) into quads per
 * bucket (2, 3, 4+). Pixels wholly inside `skip` (the detail grid's box,
 * drawn on top) are left out.
 */
export function fanoutQuads(grid: FanoutGrid, counts: Uint8Array, skip: FanoutBbox | null = null): BucketQuads[] {
  const pw = gridWidthDeg(grid) / grid.cols;
  const ph = (grid.north - grid.south) / grid.rows;
  const maxRun = Math.max(1, Math.floor(MAX_RUN_DEG / pw));
  // Collect runs first, per bucket: [west, east, south, north] degrees.
  const runs: number[][] = [[], [], []];
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
      if (b >= 0 && !(skip && inside(skip, w, e, s, n))) runs[b].push(w, e, s, n);
      i = k;
    }
  }
  return runs.map((r) => {
    const quads = r.length / 4;
    const corners = new Float32Array(8 * quads);
    for (let q = 0; q < quads; q++) {
      const [w, e, s, n] = [r[4 * q] * RAD, r[4 * q + 1] * RAD, r[4 * q + 2] * RAD, r[4 * q + 3] * RAD];
      // Around the quad: SW, SE, NE, NW.
      corners.set([s, w, s, e, n, e, n, w], 8 * q);
    }
    const buffers = cellBuffers(quads, FILL_VERTS);
    writeCells(corners, new Int32Array(quads), buffers, null);
    return { buffers, quads };
  });
}
