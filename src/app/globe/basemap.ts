/**
 * The basemap's level of detail: which outlines to draw at which zoom, and the pure work the
 * geometry worker does on them (decoding TopoJSON with topojson-client, cutting a region out).
 *
 * Three tiers, each loaded only when first needed (the files are fetched, never bundled):
 * - world (any zoom): Natural Earth 1:50m land outlines (world-atlas land-50m), Coastlines.tsx;
 * - borders (zoom ≥ BORDERS_ZOOM): country borders at 1:50m (world-atlas countries-50m) and US
 *   state borders (us-atlas states-10m, the Census cartographic boundaries), whole world;
 * - detail (zoom ≥ DETAIL_ZOOM): Natural Earth 1:10m land outlines (world-atlas land-10m) and
 *   the shores of US lakes that Natural Earth's land keeps as land (Lake Michigan: the Census
 *   state outlines are clipped to the shoreline), cut to a region around the view.
 *
 * Flat segments are [aLat, aLng, bLat, bLng, ...] in degrees.
 */
import { mesh } from 'topojson-client';
import type * as TopoJSON from 'topojson-specification';

/** The zoom factor from which country and US state borders are drawn. */
export const BORDERS_ZOOM = 2.5;
/** The zoom factor from which the 1:10m outlines replace the 1:50m ones around the view. */
export const DETAIL_ZOOM = 8;

const RAD = Math.PI / 180;

/** meshSegments returns the arcs of a TopoJSON object as flat segments; filter as topojson-client's mesh (a === b: outer edges, a !== b: shared borders). */
export function meshSegments(topology: TopoJSON.Topology, objectName: string, filter?: (a: TopoJSON.GeometryObject, b: TopoJSON.GeometryObject) => boolean): Float64Array {
  const object = topology?.objects?.[objectName];
  if (!object) throw new RangeError(`topology: no object ${JSON.stringify(objectName)} (has ${Object.keys(topology?.objects ?? {}).join(', ') || 'none'})`);
  const lines = mesh(topology, object as TopoJSON.GeometryCollection, filter).coordinates;
  let n = 0;
  for (const l of lines) n += Math.max(0, l.length - 1);
  const out = new Float64Array(4 * n);
  let k = 0;
  for (const l of lines) {
    for (let i = 1; i < l.length; i++) {
      out[k++] = l[i - 1][1];
      out[k++] = l[i - 1][0];
      out[k++] = l[i][1];
      out[k++] = l[i][0];
    }
  }
  return out;
}

/**
 * awayFrom keeps the segments of `segs` whose midpoint is farther than cellDeg (about; a grid of
 * cellDeg cells) from every vertex of `other`: the lake shores of the US state outlines that the
 * 1:10m land outline does not already draw as a coast.
 */
export function awayFrom(segs: Float64Array, other: Float64Array, cellDeg: number): Float64Array {
  const key = (lat: number, lng: number) => Math.floor((lat + 90) / cellDeg) * 100000 + Math.floor((lng + 180) / cellDeg);
  const near = new Set<number>();
  for (let i = 0; i < other.length; i += 2) {
    const [la, ln] = [other[i], other[i + 1]];
    for (const dla of [-cellDeg, 0, cellDeg]) for (const dln of [-cellDeg, 0, cellDeg]) near.add(key(la + dla, ln + dln));
  }
  const out: number[] = [];
  for (let i = 0; i < segs.length; i += 4) {
    if (!near.has(key((segs[i] + segs[i + 2]) / 2, (segs[i + 1] + segs[i + 3]) / 2))) out.push(segs[i], segs[i + 1], segs[i + 2], segs[i + 3]);
  }
  return Float64Array.from(out);
}

/** within returns the segments with an end within radiusDeg (great-circle angle) of (lat, lng). */
export function within(segs: Float64Array, lat: number, lng: number, radiusDeg: number): Float64Array {
  const c = [Math.cos(lat * RAD) * Math.cos(lng * RAD), Math.cos(lat * RAD) * Math.sin(lng * RAD), Math.sin(lat * RAD)];
  const minDot = Math.cos(Math.min(180, radiusDeg) * RAD);
  const near = (la: number, ln: number) => {
    const cl = Math.cos(la * RAD);
    return cl * Math.cos(ln * RAD) * c[0] + cl * Math.sin(ln * RAD) * c[1] + Math.sin(la * RAD) * c[2] >= minDot;
  };
  const out: number[] = [];
  for (let i = 0; i < segs.length; i += 4) {
    if (near(segs[i], segs[i + 1]) || near(segs[i + 2], segs[i + 3])) out.push(segs[i], segs[i + 1], segs[i + 2], segs[i + 3]);
  }
  return Float64Array.from(out);
}

/**
 * viewRadiusDeg returns about the angle (degrees, at least the great-circle angle) from the centre
 * of a width × height view (CSS px) to its corners at pxPerUnit CSS px per world unit (the globe's
 * radius, a radian of the map, about a radian of the cube net), at most 90.
 */
export function viewRadiusDeg(width: number, height: number, pxPerUnit: number): number {
  return Math.min(90, Math.hypot(width, height) / 2 / pxPerUnit / RAD);
}

/** A region of detail asked or drawn: centre (degrees) and radius (great-circle degrees). */
export interface Region {
  lat: number;
  lng: number;
  radiusDeg: number;
}

/**
 * needsRegion says whether the view (centre, radius of what shows) needs a new region of detail:
 * none yet, the view reaches out of it, or it is far larger than the view (slow to draw).
 */
export function needsRegion(have: Region | null, lat: number, lng: number, viewDeg: number): boolean {
  if (!have) return true;
  const d = Math.acos(Math.min(1, Math.sin(lat * RAD) * Math.sin(have.lat * RAD) + Math.cos(lat * RAD) * Math.cos(have.lat * RAD) * Math.cos((lng - have.lng) * RAD))) / RAD;
  return d + viewDeg > have.radiusDeg || have.radiusDeg > 8 * viewDeg + 1;
}

/** regionFor returns the region of detail to ask for a view: 1.6 times its radius (and half a degree), so panning a while needs no new one. */
export function regionFor(lat: number, lng: number, viewDeg: number): Region {
  return { lat, lng, radiusDeg: Math.min(60, 1.6 * viewDeg + 0.5) };
}
