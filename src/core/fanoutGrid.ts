/**
 * The fan-out map's grid: a bbox (west, south, east, north; degrees) cut into cols × rows
 * pixels; a pixel's value is the search centred on the pixel's centre. Counts are
 * row-major with row 0 the southernmost and column 0 the westernmost, which
 * is how a three.js DataTexture with v = latitude reads them. A bbox with
 * west > east crosses the antimeridian (GeoJSON's convention): its width is
 * east − west + 360 and longitudes past 180 wrap to −180. Latitudes may reach
 * ±90; pixel centres never sit on a pole. The counts themselves: fanoutGridJob.ts (one radius)
 * and fanoutField.ts (every radius up to a limit).
 */
import { wrapLng } from './earth.ts';

/** Most pixels a grid may have (2048 × 2048). */
export const MAX_GRID_POINTS = 2048 * 2048;

/** Most pixels along one side of a grid. */
export const MAX_GRID_SIDE = 4096;

/** A latitude/longitude box in degrees; west > east means it crosses the antimeridian. */
export interface FanoutBbox {
  /** Degrees in [-180, 180]. */
  west: number;
  /** Degrees in [-90, 90), below north. */
  south: number;
  /** Degrees in [-180, 180]. */
  east: number;
  /** Degrees in (-90, 90], above south. */
  north: number;
}

/** A bbox cut into cols × rows pixels (integers in [1, MAX_GRID_SIDE], cols·rows ≤ MAX_GRID_POINTS). */
export interface FanoutGrid extends FanoutBbox {
  cols: number;
  rows: number;
}

/**
 * assertFanoutGrid throws a RangeError naming the field, its value and what
 * is valid, unless grid is a valid FanoutGrid.
 */
export function assertFanoutGrid(grid: unknown): asserts grid is FanoutGrid {
  if (!grid || typeof grid !== 'object') throw new RangeError(`grid ${JSON.stringify(grid)} is not an object { west, south, east, north, cols, rows }`);
  const g = grid as Record<string, unknown>;
  const num = (k: string, lo: number, hi: number, what: string) => {
    const v = g[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) throw new RangeError(`grid.${k} ${JSON.stringify(v)} is invalid: expected ${what}`);
    return v;
  };
  const west = num('west', -180, 180, 'a longitude in [-180, 180] degrees');
  const east = num('east', -180, 180, 'a longitude in [-180, 180] degrees');
  const south = num('south', -90, 90, 'a latitude in [-90, 90] degrees');
  const north = num('north', -90, 90, 'a latitude in [-90, 90] degrees');
  if (!(north > south)) throw new RangeError(`grid.north ${north} is not above grid.south ${south}: expected south < north`);
  if (west === east) throw new RangeError(`grid.west and grid.east are both ${west}: the box has no width (use west -180, east 180 for the whole world)`);
  for (const k of ['cols', 'rows']) {
    const v = g[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_GRID_SIDE) throw new RangeError(`grid.${k} ${JSON.stringify(v)} is invalid: expected an integer in [1, ${MAX_GRID_SIDE}]`);
  }
  if ((g.cols as number) * (g.rows as number) > MAX_GRID_POINTS) {
    throw new RangeError(`grid ${g.cols} × ${g.rows} has ${(g.cols as number) * (g.rows as number)} points: at most ${MAX_GRID_POINTS} (coarsen it; the map refines as the view zooms in)`);
  }
}

/** gridWidthDeg returns the bbox's width in degrees of longitude, in (0, 360]; it crosses the antimeridian when west > east. */
export function gridWidthDeg(b: FanoutBbox): number {
  return b.east > b.west ? b.east - b.west : b.east - b.west + 360;
}

/** gridLng returns the longitude of column i's pixel centres, in [-180, 180). */
export function gridLng(grid: FanoutGrid, i: number): number {
  return wrapLng(grid.west + ((i + 0.5) * gridWidthDeg(grid)) / grid.cols);
}

/** gridLat returns the latitude of row j's pixel centres (row 0 southernmost). */
export function gridLat(grid: FanoutGrid, j: number): number {
  return grid.south + ((j + 0.5) * (grid.north - grid.south)) / grid.rows;
}

/**
 * gridForBbox returns the grid over a bbox with pixels of about stepDeg
 * degrees (at least one pixel each way). When that would exceed maxPoints
 * the step grows until it fits. stepDeg must be finite and > 0.
 */
export function gridForBbox(bbox: FanoutBbox, stepDeg: number, maxPoints = 250_000): FanoutGrid {
  if (typeof stepDeg !== 'number' || !Number.isFinite(stepDeg) || stepDeg <= 0) throw new RangeError(`step ${stepDeg} is invalid: expected a positive number of degrees`);
  const w = gridWidthDeg(bbox);
  const h = bbox.north - bbox.south;
  let step = stepDeg;
  const limit = Math.min(maxPoints, MAX_GRID_POINTS);
  while (Math.max(1, Math.ceil(w / step)) * Math.max(1, Math.ceil(h / step)) > limit || Math.ceil(w / step) > MAX_GRID_SIDE || Math.ceil(h / step) > MAX_GRID_SIDE) step *= 1.25;
  const grid = { ...bbox, cols: Math.max(1, Math.ceil(w / step)), rows: Math.max(1, Math.ceil(h / step)) };
  assertFanoutGrid(grid);
  return grid;
}
