/**
 * The host's part of the URL codec: the view's parameters (lat, lng, zoom, level, layers,
 * flatten), the side panel's tabs, `debug=` and the link helpers (server paths, the candidate
 * URL). The whole link is read and written by shell/linkCodec.ts, which loops over the feature list
 * (src/app/features.ts): each feature declares its own parameters there. This file imports no
 * feature, so the rendering kit and every slice can import it.
 *
 * Spin: only the bare first screen spins. A link that names a place (lat, lng, view), a search
 * (radius, location), a candidate or a tour step opens still (the features name their such
 * parameters in their `still`), and a spinning view writes no lat/lng (it is not at one place),
 * so the address bar does not drift while the globe turns.
 */
import type { RadiusUnit } from '../../core/index';
import { wrapLng } from '../../core/earth';

export { wrapLng };

/** The layers of the globe, in display order. */
export const LAYERS = ['shards', 'hilbert', 'grid', 'land', 'labels', 'spin', 'requests'] as const;
export type Layer = (typeof LAYERS)[number];

/** How the globe is shown: the sphere, an equirectangular map, or the unfolded cube. */
export const FLATTEN_MODES = ['globe', 'map', 'net'] as const;
export type FlattenMode = (typeof FLATTEN_MODES)[number];

/** Zoom limits (factors): 50% to 200,000%, enough for level-10 cells to fill the view. */
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 2000;
export const MAX_LEVEL = 10;

/** The part of the view that is shared in links. */
export interface UrlView {
  lat: number;
  lng: number;
  zoom: number;
  level: number;
  layers: Layer[];
  flatten: FlattenMode;
}

/** The view a bare link opens: North America, the level the article starts at. */
export const DEFAULT_VIEW: Readonly<UrlView> = Object.freeze({
  lat: 36,
  lng: -98,
  zoom: 1,
  level: 4,
  layers: ['shards', 'grid', 'land', 'labels', 'spin'] as Layer[],
  flatten: 'globe' as FlattenMode,
});

/**
 * parseUrlView reads a query string (with or without `?`); returns the view and a message per
 * ignored parameter. The view does not spin when the query has one of `still` (the host's
 * parameters by default; parseUrl in shell/linkCodec.ts passes every feature's too).
 */
export function parseUrlView(search: string, defaults: UrlView = DEFAULT_VIEW, still: readonly string[] = HOST_STILL_PARAMS): { view: UrlView; problems: string[] } {
  const q = new URLSearchParams(search);
  const view: UrlView = { ...defaults, layers: [...defaults.layers] };
  const problems: string[] = [];
  const num = (key: string, lo: number, hi: number, valid: string, integer = false): number | undefined => {
    const raw = q.get(key);
    if (raw === null) return undefined;
    const v = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(v) || v < lo || v > hi || (integer && !Number.isInteger(v))) {
      problems.push(`${key}=${raw} is ignored: expected ${valid}`);
      return undefined;
    }
    return v;
  };
  const lat = num('lat', -90, 90, 'a latitude in [-90, 90] degrees');
  const lng = num('lng', -1e6, 1e6, 'a longitude in degrees');
  const zoom = num('zoom', MIN_ZOOM, MAX_ZOOM, `a zoom factor in [${MIN_ZOOM}, ${MAX_ZOOM}] (1 = 100%)`);
  const level = num('level', 0, MAX_LEVEL, `an S2 level, an integer in [0, ${MAX_LEVEL}]`, true);
  if (lat !== undefined) view.lat = lat;
  if (lng !== undefined) view.lng = wrapLng(lng);
  if (zoom !== undefined) view.zoom = zoom;
  if (level !== undefined) view.level = level;
  const layers = q.get('layers');
  if (layers !== null) {
    const names = layers.split(',').map((s) => s.trim()).filter(Boolean);
    const bad = names.filter((n) => !(LAYERS as readonly string[]).includes(n));
    if (bad.length) problems.push(`layers: ${bad.map((b) => JSON.stringify(b)).join(', ')} ignored: layers are ${LAYERS.join(', ')}`);
    // Only unknown names (layers=foo): the default layers are what is shown, not none.
    if (!(bad.length > 0 && bad.length === names.length)) view.layers = LAYERS.filter((l) => names.includes(l));
  }
  if (namesAPlace(q, still)) view.layers = view.layers.filter((l) => l !== 'spin');
  const flatten = q.get('flatten');
  if (flatten !== null) {
    if ((FLATTEN_MODES as readonly string[]).includes(flatten)) view.flatten = flatten as FlattenMode;
    else problems.push(`flatten=${flatten} is ignored: expected map or net (or no flatten for the globe)`);
  }
  return { view, problems };
}

/**
 * formatUrlView writes the view as a query string (with `?`), keeping any
 * other parameters of `base` (such as boundaries=). Coordinates keep 4
 * decimals (about 10 m), zoom 3 significant digits.
 */
export function formatUrlView(view: UrlView, base = ''): string {
  const q = new URLSearchParams(base);
  if (view.layers.includes('spin')) {
    // A turning globe is at no one place: writing its centre would make the link drift (and open still).
    q.delete('lat');
    q.delete('lng');
  } else {
    q.set('lat', round(view.lat, 4));
    q.set('lng', round(wrapLng(view.lng), 4));
  }
  q.set('zoom', String(Number(view.zoom.toPrecision(3))));
  q.set('level', String(view.level));
  q.set('layers', LAYERS.filter((l) => view.layers.includes(l)).join(','));
  if (view.flatten === 'globe') q.delete('flatten');
  else q.set('flatten', view.flatten);
  return queryString(q);
}

/** The query keys the host reads and writes itself (the features declare theirs in src/app/features.ts). */
export const HOST_KEYS: readonly string[] = ['lat', 'lng', 'zoom', 'level', 'layers', 'flatten', 'tab', 'debug', 'boundaries'];

/** The host's parameters that make a link name a place: such a link opens still (the features add theirs: shell/linkCodec.ts). */
export const HOST_STILL_PARAMS: readonly string[] = ['lat', 'lng', 'view'];

/** namesAPlace tells whether a query has one of the `still` parameters (then the globe opens still). */
export function namesAPlace(q: URLSearchParams, still: readonly string[] = HOST_STILL_PARAMS): boolean {
  return still.some((k) => q.has(k));
}

/** roundTo writes v with at most d decimals and no trailing zeros (the link's numbers). */
export const roundTo = (v: number, d: number): string => String(Number(v.toFixed(d)));
const round = roundTo;

/** radiusLabel writes a radius for people: "15 mi", "24.1 km". */
export function radiusLabel(r: { value: number; unit: RadiusUnit }): string {
  return `${Number(r.value.toFixed(r.value < 10 ? 2 : 1))} ${r.unit}`;
}

/** The side panel's tabs by id, in order; the first is the default (shell/panels.ts draws them). */
export const TABS = ['radius', 'live', 'nodes', 'traffic', 'review', 'migration', 'shards', 'about'] as const;
export type TabId = (typeof TABS)[number];

/** debugOrdinal tells whether a query asks for cell ordinals instead of shard colors (`debug=ordinal`). */
export function debugOrdinal(query: string): boolean {
  return new URLSearchParams(query).get('debug') === 'ordinal';
}

/** query writes URLSearchParams as a query string with `?` (commas kept readable). */
export const queryString = (q: URLSearchParams): string => '?' + q.toString().replace(/%2C/g, ',');

/** The page's origin (a fixed stand-in where there is no page, as in unit tests). */
export const pageOrigin = (): string => globalThis.location?.origin ?? 'http://localhost';

/**
 * serverPath resolves a link parameter that must be a path on this server
 * (such as /data/boundaries.json) against `origin` the way the browser will
 * fetch it, and returns it as path + query; null when it is not one. A path
 * is judged by where it resolves, not by how it starts: `/\\host/x.json` and
 * `//host/x.json` start with "/" but name another host, so a link could
 * otherwise show a file from a host it does not name plainly.
 */
export function serverPath(param: string, origin: string): string | null {
  if (!param.startsWith('/') || /\s/.test(param)) return null;
  let u: URL;
  try {
    u = new URL(param, origin);
  } catch {
    return null;
  }
  return u.origin === new URL(origin).origin ? u.pathname + u.search : null;
}

/**
 * candidateUrl returns the candidate to open from a query string's
 * `candidate` parameter: a path on this server (/x.json, resolved against
 * `origin` and kept only if it stays there) or an http(s) URL that names its
 * host plainly; null when there is none. Throws a RangeError naming the value
 * otherwise.
 */
export function candidateUrl(search: string, origin: string = pageOrigin()): string | null {
  const param = new URLSearchParams(search).get('candidate');
  if (param === null || param === '') return null;
  if (param.startsWith('/')) {
    const path = serverPath(param, origin);
    if (path !== null) return path;
    throw new RangeError(`candidate=${param} is not a path on this server: it resolves to ${describeTarget(param, origin)}; to open a file from another host, name it as a full http(s) URL`);
  }
  if (/^https?:\/\/[^\s/\\]+(\/\S*)?$/i.test(param)) return new URL(param).href;
  throw new RangeError(`candidate=${param} is not a URL: expected a path on this server such as /candidate.json, or an http(s) URL`);
}

/** Where a relative link would lead, for messages. */
function describeTarget(param: string, origin: string): string {
  try {
    return new URL(param, origin).href;
  } catch {
    return 'no URL';
  }
}
