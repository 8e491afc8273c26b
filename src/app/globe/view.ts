/**
 * View math shared by the scene and the pointer: where a point of the Earth
 * appears on the screen and which point is under a pixel, on the globe, the
 * map and the unfolded cube. The vertex shaders do the same in GLSL; this is
 * the CPU side for labels, hover and dragging.
 *
 * World units: the globe is the unit sphere seen from +z by an orthographic
 * camera (x right, y up); the map is equirectangular in radians (2π × π); the
 * cube net has faces NET_FACE_SIDE wide. Screen coordinates are CSS pixels
 * from the canvas's top-left corner. Angles in degrees unless named Rad.
 */
import { latLngOfFaceST, faceSTAt } from './faces';
import { netPosition, netFaceAt, NET_BOUNDS } from './cubeNet';
import { NET_FACE_SIDE } from './s2glsl';
import { wrapLng } from '../shell/url';

const RAD = Math.PI / 180;

/** A flat layout the globe can morph into. */
export type FlatKind = 'map' | 'net';

/** Everything that decides the picture's geometry at one frame. */
export interface ViewGeometry {
  /** The point at the centre of the view, degrees. */
  lat: number;
  lng: number;
  /** Zoom factor, 1 = the whole globe (or map, or net) fits. */
  zoom: number;
  /** 0 = globe, 1 = flat (already eased); in between, a morph. */
  morph: number;
  /** The flat layout the morph goes to. */
  flat: FlatKind;
  /** The latitude at the centre of the map when flat = map (the camera's, kept so the map fills the view). */
  mapLat: number;
  /** The net position at the centre of the view when flat = net (world units). */
  net: [number, number];
  /** Canvas size, CSS pixels. */
  width: number;
  height: number;
}

/**
 * rotation returns the 3×3 matrix (row-major) taking Earth-fixed S2
 * coordinates (x toward lat 0 lng 0, z toward the north pole) to view
 * coordinates, with the centre point facing the camera and north up.
 */
export function rotation(lat: number, lng: number): number[] {
  const cp = Math.cos(lat * RAD);
  const sp = Math.sin(lat * RAD);
  const cl = Math.cos(lng * RAD);
  const sl = Math.sin(lng * RAD);
  // view = P · Ry(lat) · Rz(−lng), P taking S2 (x, y, z) to view (z, x, y).
  return [-sl, cl, 0, -sp * cl, -sp * sl, cp, cp * cl, cp * sl, sp];
}

/** baseScale returns CSS pixels per world unit at zoom 1 for a layout filling a width × height canvas. */
export function baseScale(kind: 'globe' | FlatKind, width: number, height: number): number {
  if (kind === 'globe') return 0.44 * Math.min(width, height);
  if (kind === 'map') return 0.94 * Math.min(width / (2 * Math.PI), height / Math.PI);
  return 0.94 * Math.min(width / (4 * NET_FACE_SIDE), height / (3 * NET_FACE_SIDE));
}

/** pixelsPerUnit returns the current CSS pixels per world unit (morphing between the two base scales). */
export function pixelsPerUnit(v: ViewGeometry): number {
  const g = baseScale('globe', v.width, v.height);
  const f = baseScale(v.flat, v.width, v.height);
  return (g + (f - g) * v.morph) * v.zoom;
}

/** netCentreOf returns the net position of a point, for centring the net on it. */
export function netCentreOf(lat: number, lng: number): [number, number] {
  const { face, s, t } = faceSTAt(lat, lng);
  return netPosition(face, s, t);
}

/** flatPosition returns a point's position in the flat layout, relative to the view centre (world units). */
export function flatPosition(v: ViewGeometry, lat: number, lng: number, faceST?: { face: number; s: number; t: number }): [number, number] {
  if (v.flat === 'map') return [wrapLng(lng - v.lng) * RAD, (lat - v.mapLat) * RAD];
  const { face, s, t } = faceST ?? faceSTAt(lat, lng);
  const [x, y] = netPosition(face, s, t);
  return [x - v.net[0], y - v.net[1]];
}

/**
 * projectLatLng returns where a point appears (CSS pixels) and whether it is
 * on the visible side (on the globe, the hemisphere facing the camera).
 */
export function projectLatLng(v: ViewGeometry, lat: number, lng: number, faceST?: { face: number; s: number; t: number }): { x: number; y: number; visible: boolean } {
  const m = rotation(v.lat, v.lng);
  const c = Math.cos(lat * RAD);
  const e = [c * Math.cos(lng * RAD), c * Math.sin(lng * RAD), Math.sin(lat * RAD)];
  const g = [0, 1, 2].map((r) => m[3 * r] * e[0] + m[3 * r + 1] * e[1] + m[3 * r + 2] * e[2]);
  let X = g[0];
  let Y = g[1];
  let visible = g[2] > 0.02;
  if (v.morph > 0) {
    const [fx, fy] = flatPosition(v, lat, lng, faceST);
    X += (fx - X) * v.morph;
    Y += (fy - Y) * v.morph;
    visible = v.morph >= 0.5 || visible;
  }
  const k = pixelsPerUnit(v);
  return { x: v.width / 2 + X * k, y: v.height / 2 - Y * k, visible };
}

/**
 * unprojectScreen returns the point under a pixel, or null where there is
 * none (off the globe, off the map, in a gap of the net, or mid-morph).
 */
export function unprojectScreen(v: ViewGeometry, x: number, y: number): { lat: number; lng: number } | null {
  const k = pixelsPerUnit(v);
  const X = (x - v.width / 2) / k;
  const Y = -(y - v.height / 2) / k;
  if (v.morph === 0) {
    const r2 = X * X + Y * Y;
    if (r2 > 1) return null;
    const Z = Math.sqrt(1 - r2);
    const m = rotation(v.lat, v.lng);
    // Earth = Mᵀ · view (M is a rotation).
    const ex = m[0] * X + m[3] * Y + m[6] * Z;
    const ey = m[1] * X + m[4] * Y + m[7] * Z;
    const ez = m[2] * X + m[5] * Y + m[8] * Z;
    return { lat: Math.atan2(ez, Math.hypot(ex, ey)) / RAD, lng: Math.atan2(ey, ex) / RAD };
  }
  if (v.morph !== 1) return null;
  if (v.flat === 'map') {
    const lat = v.mapLat + Y / RAD;
    if (Math.abs(X) > Math.PI || Math.abs(lat) > 90) return null;
    return { lat, lng: wrapLng(v.lng + X / RAD) };
  }
  const f = netFaceAt(X + v.net[0], Y + v.net[1]);
  return f ? latLngOfFaceST(f.face, f.s, f.t) : null;
}

/**
 * clampFlatCentre keeps a flat layout in view: where the map (or net) is
 * smaller than the canvas along an axis it is centred on that axis, otherwise
 * the centre may move only so far that no empty space shows. Returns the
 * map's centre latitude (degrees) and the net's centre (world units).
 */
export function clampFlatCentre(v: Pick<ViewGeometry, 'zoom' | 'width' | 'height' | 'flat'>, lat: number, net: [number, number]): { mapLat: number; net: [number, number] } {
  const k = baseScale(v.flat, v.width, v.height) * v.zoom;
  const halfW = v.width / 2 / k;
  const halfH = v.height / 2 / k;
  const clamp = (x: number, lo: number, hi: number, half: number) => (hi - lo <= 2 * half ? (lo + hi) / 2 : Math.min(hi - half, Math.max(lo + half, x)));
  const mapLat = clamp(lat * RAD, -Math.PI / 2, Math.PI / 2, halfH) / RAD;
  const [x0, y0, x1, y1] = NET_BOUNDS;
  return { mapLat, net: [clamp(net[0], x0, x1, halfW), clamp(net[1], y0, y1, halfH)] };
}
