/**
 * The view in the URL, so a view can be shared:
 * `?lat=37.7749&lng=-122.4194&zoom=4&level=6&layers=shards,grid,land&flatten=net`.
 *
 * lat/lng (degrees) are the point at the centre of the view; zoom is a factor
 * (1 = the whole globe fits, shown as 100%); level is the S2 level drawn
 * (0 to 10); layers lists the layers that are on (an empty value turns all
 * off); flatten is `map` (equirectangular) or `net` (unfolded cube), absent
 * for the globe. Bad values are ignored one by one, each with a message
 * naming the parameter, its value and what is valid, so a hand-edited link
 * still opens.
 */

/** The layers of the globe, in display order. */
export const LAYERS = ['shards', 'hilbert', 'grid', 'land', 'labels', 'spin'] as const;
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

/** parseUrlView reads a query string (with or without `?`); returns the view and a message per ignored parameter. */
export function parseUrlView(search: string, defaults: UrlView = DEFAULT_VIEW): { view: UrlView; problems: string[] } {
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
    view.layers = LAYERS.filter((l) => names.includes(l));
  }
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
  q.set('lat', round(view.lat, 4));
  q.set('lng', round(wrapLng(view.lng), 4));
  q.set('zoom', String(Number(view.zoom.toPrecision(3))));
  q.set('level', String(view.level));
  q.set('layers', LAYERS.filter((l) => view.layers.includes(l)).join(','));
  if (view.flatten === 'globe') q.delete('flatten');
  else q.set('flatten', view.flatten);
  return '?' + q.toString().replace(/%2C/g, ',');
}

/** wrapLng wraps a longitude into [-180, 180). */
export function wrapLng(lng: number): number {
  if (lng >= -180 && lng < 180) return lng;
  const w = (((lng + 180) % 360) + 360) % 360 - 180;
  return Object.is(w, -0) ? 0 : w;
}

const round = (v: number, d: number) => String(Number(v.toFixed(d)));
