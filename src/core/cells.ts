/**
 * Level-10 S2 cells: the unit of placement in a geosharded index.
 *
 * A location maps to exactly one level-10 cell. Cells are identified by their
 * 64-bit S2 cell id (a `bigint`, ordered along S2's Hilbert curve); tokens are
 * S2's short hex form of the id, for files and people. The ordinal is the
 * cell's position along the curve among all level-10 cells, an integer in
 * [0, CELL_COUNT): it orders exactly like the id and fits in typed arrays and
 * shader floats (< 2^24).
 *
 * All latitudes and longitudes are in degrees.
 */
import { s2 } from 's2js';
import { faceUVOfPoint, ijOfST, latLngRadOfPoint, normalize, pointOfDegrees, pointOfFaceUV, stOfSiTi, stOfUV, uvOfST } from './stuv.ts';

// `s2.cellid.x(...)` in full at every call, never `const cellid = s2.cellid` or a destructuring:
// the explorer's build tree-shakes s2js by static member reads of its namespaces
// (vite.config.ts, s2jsNamespaces), and an alias keeps every function of `cellid`, with them
// s2's Point and the exact predicates. The same holds in every file of the core and the app.

/** The S2 level at which documents are placed. */
export const LEVEL = 10;

/** Number of level-10 cells on the sphere: 6 · 4^10 = 6,291,456. */
export const CELL_COUNT = 6 * 4 ** LEVEL;

/** Number of level-10 cells on one cube face: 4^10. */
export const CELLS_PER_FACE = 4 ** LEVEL;

/** Bits below a level-10 cell's position: 2·(30−10)+1 = 41. */
const ORDINAL_SHIFT = BigInt(2 * (30 - LEVEL) + 1);

/** A level-10 S2 cell id, ordered along the Hilbert curve. */
export type CellId = bigint;

/** A point in degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * Checks a latitude/longitude pair and throws a RangeError naming the bad
 * value. lat must be finite and in [-90, 90]; lng must be finite (any finite
 * longitude is accepted and wraps).
 */
export function assertLatLng(lat: number, lng: number, what = ''): void {
  const p = what ? `${what}.` : '';
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw new RangeError(`${p}lat ${String(lat)} is not a latitude: it must be a number in [-90, 90] degrees`);
  }
  if (typeof lng !== 'number' || !Number.isFinite(lng)) {
    throw new RangeError(`${p}lng ${String(lng)} is not a longitude: it must be a finite number of degrees`);
  }
}

/**
 * leafCellAt returns the leaf (level-30) cell id containing the point (degrees, not checked: see
 * assertLatLng): s2js's `cellid.fromLatLng(LatLng.fromDegrees(lat, lng))`, through stuv.ts.
 */
export function leafCellAt(lat: number, lng: number): CellId {
  const [face, u, v] = faceUVOfPoint(pointOfDegrees(lat, lng));
  return s2.cellid.fromFaceIJ(face, ijOfST(stOfUV(u)), ijOfST(stOfUV(v)));
}

/** cellAt returns the level-10 cell id containing the point (degrees). Throws RangeError on invalid input. */
export function cellAt(lat: number, lng: number): CellId {
  assertLatLng(lat, lng);
  return s2.cellid.parent(leafCellAt(lat, lng), LEVEL);
}

/** tokenAt returns the level-10 token of the point (degrees), e.g. `808581` for downtown San Francisco. */
export function tokenAt(lat: number, lng: number): string {
  return s2.cellid.toToken(cellAt(lat, lng));
}

/** cellToken returns S2's short hex token of a cell id (trailing zeros dropped). */
export function cellToken(id: CellId): string {
  return s2.cellid.toToken(id);
}

const TOKEN_RE = /^[0-9a-f]{1,16}$/;

/**
 * parseToken returns the cell id of a level-10 token, or throws a RangeError
 * that names the token and says why it is not a valid level-10 token.
 * Tokens are lower-case hex as S2 writes them (`808581`); upper case is
 * rejected so that one cell has one spelling in files.
 */
export function parseToken(token: string, what = 'token'): CellId {
  if (typeof token !== 'string' || !TOKEN_RE.test(token)) {
    throw new RangeError(`${what} ${JSON.stringify(token)} is not an S2 token: expected 1 to 16 lower-case hex digits such as "808581"`);
  }
  const id = s2.cellid.fromToken(token);
  if (!s2.cellid.valid(id)) {
    throw new RangeError(`${what} ${JSON.stringify(token)} is not a valid S2 cell id`);
  }
  const lvl = s2.cellid.level(id);
  if (lvl !== LEVEL) {
    throw new RangeError(`${what} ${JSON.stringify(token)} is a level-${lvl} cell: expected a level-${LEVEL} token`);
  }
  if (s2.cellid.toToken(id) !== token) {
    throw new RangeError(`${what} ${JSON.stringify(token)} is not in canonical form: write it as "${s2.cellid.toToken(id)}"`);
  }
  return id;
}

/** isLevel10Token reports whether the string is a canonical level-10 token. */
export function isLevel10Token(token: string): boolean {
  try {
    parseToken(token);
    return true;
  } catch {
    return false;
  }
}

/** cellOrdinal returns the position of a level-10 cell along the curve, in [0, CELL_COUNT). */
export function cellOrdinal(id: CellId): number {
  return Number(id >> ORDINAL_SHIFT);
}

/** cellFromOrdinal is the inverse of cellOrdinal. Precondition: 0 <= ordinal < CELL_COUNT, an integer. */
export function cellFromOrdinal(ordinal: number): CellId {
  if (!Number.isInteger(ordinal) || ordinal < 0 || ordinal >= CELL_COUNT) {
    throw new RangeError(`ordinal ${ordinal} is out of range: expected an integer in [0, ${CELL_COUNT})`);
  }
  return (BigInt(ordinal) << ORDINAL_SHIFT) | (1n << (ORDINAL_SHIFT - 1n));
}

/** tokenOfOrdinal writes a range end as boundary files do: a level-10 token, or null for CELL_COUNT (end of the curve). */
export function tokenOfOrdinal(ordinal: number): string | null {
  return ordinal >= CELL_COUNT ? null : cellToken(cellFromOrdinal(ordinal));
}

/** ordinalAt returns the curve ordinal of the level-10 cell containing the point. */
export function ordinalAt(lat: number, lng: number): number {
  return cellOrdinal(cellAt(lat, lng));
}

/** cellFace returns the cube face (0..5) of a cell. */
export function cellFace(id: CellId): number {
  return s2.cellid.face(id);
}

/** cellLevel returns the S2 level (0..30) of any cell id. */
export function cellLevel(id: CellId): number {
  return s2.cellid.level(id);
}

/** cellCenter returns the centre of any cell in degrees. */
export function cellCenter(id: CellId): LatLng {
  // s2js's cellid.latLng(id), through stuv.ts.
  const { face, si, ti } = s2.cellid.faceSiTi(id);
  const ll = latLngRadOfPoint(pointOfFaceUV(face, uvOfST(stOfSiTi(si)), uvOfST(stOfSiTi(ti))));
  return { lat: (ll.lat * 180) / Math.PI, lng: (ll.lng * 180) / Math.PI };
}

/**
 * cellVertexPoints returns the four corners of any cell as unit vectors, 12 floats (x, y, z per
 * corner), counter-clockwise (lower left, lower right, upper right, upper left in the face's UV
 * plane): exactly s2.Cell.fromCellID(id).vertex(k) for k = 0..3, without s2.Cell (a class the
 * explorer's build cannot tree-shake: see stuv.ts).
 */
export function cellVertexPoints(id: CellId): Float64Array {
  const face = s2.cellid.face(id);
  const { x, y } = s2.cellid.boundUV(id);
  const out = new Float64Array(12);
  [
    [x.lo, y.lo],
    [x.hi, y.lo],
    [x.hi, y.hi],
    [x.lo, y.hi],
  ].forEach(([u, v], k) => out.set(normalize(pointOfFaceUV(face, u, v)), 3 * k));
  return out;
}

/** cellVertices returns the four corners of any cell in degrees, counter-clockwise (cellVertexPoints' order). */
export function cellVertices(id: CellId): LatLng[] {
  const p = cellVertexPoints(id);
  const out: LatLng[] = [];
  for (let k = 0; k < 12; k += 3) {
    const ll = latLngRadOfPoint([p[k], p[k + 1], p[k + 2]]);
    out.push({ lat: ll.lat * (180 / Math.PI), lng: ll.lng * (180 / Math.PI) });
  }
  return out;
}

/**
 * ordinalRange returns the range of level-10 ordinals [first, last] covered by
 * a cell of any level <= 10 (a coarser cell covers a contiguous run).
 */
export function ordinalRange(id: CellId): [number, number] {
  return [cellOrdinal(s2.cellid.childBeginAtLevel(id, LEVEL)), cellOrdinal(s2.cellid.prev(s2.cellid.childEndAtLevel(id, LEVEL)))];
}
