/**
 * The one URL codec: reads and writes the whole state a link carries, in one
 * place, with one meaning per parameter.
 *
 *   ?lat=40.7143&lng=-74.006&radius=15mi&zoom=210&level=4&layers=shards,grid,land,labels
 *
 * | parameter   | meaning |
 * |-------------|---------|
 * | lat, lng    | the point the link is about (degrees): the search centre when the link has a radius, else the view's centre |
 * | view        | where the camera looks (lat,lng), only when that is not the search centre |
 * | zoom        | zoom factor (1 = the whole globe fits, shown as 100%); absent with a search: fit the circle |
 * | level       | the S2 level drawn, 0 to 10 |
 * | layers      | the layers that are on (an empty value turns all off) |
 * | flatten     | `map` (equirectangular) or `net` (unfolded cube); absent for the globe |
 * | radius      | the search radius, a positive number with `mi` or `km` (bare = miles), at most MAX_RADIUS_KM (the core's parseRadius) |
 * | location    | `none`: the no-location search (every shard asked) |
 * | fanout      | `1`: the fan-out map on |
 * | candidate   | a proposed boundary file to review (a same-origin path or an http(s) URL) |
 * | boundaries  | the boundary file to open instead of the bundled one (a same-origin path; read by loadData.boundariesSource) |
 * | debug       | `ordinal`: draw cell ordinals instead of shard colours |
 * | tab         | the side panel's open tab (TABS); absent for the first one |
 * | live        | `1`: the Live switch on |
 * | diet, allergen, cuisine | Live's facet filters, comma-separated values of the API's vocabulary |
 * | review      | `local`: reopen the candidate kept in this browser (one opened with the picker or dropped); replaces candidate= |
 * | tour        | `N`: step N of the guided tour (1 = the first) |
 *
 * parseUrl reads them all once; applyLink puts a link's search (and, on
 * back/forward, its view) into the store; formatUrl writes view and search
 * back, formatUrlShell the panel state, each keeping every other parameter of
 * the current query. Bad values are ignored one by one with a message naming
 * the parameter, its value and what is valid, so a hand-edited link still
 * opens (the page shows the messages and rewrites the address bar to what it
 * shows).
 *
 * Spin: only the bare first screen spins. A link that names a place (lat,
 * lng, view), a search (radius, location), a candidate or a tour step opens
 * still, and a spinning view writes no lat/lng (it is not at one place), so
 * the address bar does not drift while the globe turns.
 */
import { parseRadius, formatRadius, type Radius, type RadiusUnit } from '../../core/index';
import { wrapLng } from '../../core/earth';

export { wrapLng };
import type { SearchCentre } from '../search/searchSlice';
import { DEFAULT_RADIUS } from '../search/searchSlice';
import { FILTER_KINDS, VOCABULARY, type FilterKind } from '../../server/wire';
import { TOUR_STEPS } from '../tour/steps';
import type { AppStore } from './types';

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
    // Only unknown names (layers=foo): the default layers are what is shown, not none.
    if (!(bad.length > 0 && bad.length === names.length)) view.layers = LAYERS.filter((l) => names.includes(l));
  }
  if (namesAPlace(q)) view.layers = view.layers.filter((l) => l !== 'spin');
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
  return '?' + q.toString().replace(/%2C/g, ',');
}

/** The parameters that make a link name a place, a search, a candidate or a tour step: such a link opens still. */
const STILL_PARAMS = ['lat', 'lng', 'view', 'radius', 'location', 'candidate', 'review', 'tour'] as const;

/** namesAPlace tells whether a query names a place, a search, a candidate or a tour step (then the globe opens still). */
export function namesAPlace(q: URLSearchParams): boolean {
  return STILL_PARAMS.some((k) => q.has(k));
}

const round = (v: number, d: number) => String(Number(v.toFixed(d)));

/** The search part of a link. */
export interface UrlSearch {
  /** Null when the link has no radius (or no valid lat/lng with it). */
  centre: SearchCentre | null;
  /** The core's Radius, as parseRadius read it (the default radius when the link has none). */
  radius: Radius;
  noLocation: boolean;
  fanout: boolean;
}

/** What parseUrlSearch reads: the search, plus the view parameters that depend on it. */
export interface ParsedUrlSearch {
  search: UrlSearch;
  /** The camera's centre from `view=`, when the link has a search centre and a valid view. */
  camera: { lat: number; lng: number } | null;
  /** Whether the link sets the zoom itself (else the view fits the circle). */
  hasZoom: boolean;
  problems: string[];
}

/** parseUrlSearch reads the search parameters of a query string (with or without `?`). */
export function parseUrlSearch(query: string): ParsedUrlSearch {
  const q = new URLSearchParams(query);
  const problems: string[] = [];
  const search: UrlSearch = { centre: null, radius: { ...DEFAULT_RADIUS }, noLocation: false, fanout: false };
  let hasRadius = false;
  const rawRadius = q.get('radius');
  if (rawRadius !== null) {
    try {
      search.radius = parseRadius(rawRadius, 'mi', 'radius');
      hasRadius = true;
    } catch (e) {
      problems.push(`radius=${rawRadius} is ignored: expected a radius such as 15mi or 25km, greater than 0 and at most 1000 km (${(e as Error).message})`);
    }
  }
  const lat = Number(q.get('lat'));
  const lng = Number(q.get('lng'));
  const latOk = q.get('lat') !== null && q.get('lat')!.trim() !== '' && Number.isFinite(lat) && Math.abs(lat) <= 90;
  const lngOk = q.get('lng') !== null && q.get('lng')!.trim() !== '' && Number.isFinite(lng) && Math.abs(lng) <= 1e6;
  if (hasRadius) {
    if (latOk && lngOk) search.centre = { lat, lng: wrapLng(lng), label: '' };
    else problems.push('radius is ignored: a search needs lat (in [-90, 90]) and lng (degrees) for its centre');
  }
  const location = q.get('location');
  if (location !== null) {
    if (location === 'none') search.noLocation = true;
    else problems.push(`location=${location} is ignored: expected location=none (a search with no location) or no location parameter`);
  }
  const fanout = q.get('fanout');
  if (fanout !== null) {
    if (fanout === '1' || fanout === '0') search.fanout = fanout === '1';
    else problems.push(`fanout=${fanout} is ignored: expected 1 (fan-out map on) or 0`);
  }
  let camera: ParsedUrlSearch['camera'] = null;
  const view = q.get('view');
  if (view !== null) {
    const m = /^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$/.exec(view);
    const vl = m ? Number(m[1]) : NaN;
    const vg = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(vl) || Math.abs(vl) > 90 || !Number.isFinite(vg)) problems.push(`view=${view} is ignored: expected the view's centre as lat,lng in degrees, such as view=40.7,-74`);
    else if (search.centre) camera = { lat: vl, lng: wrapLng(vg) };
  }
  return { search, camera, hasZoom: q.get('zoom') !== null, problems };
}

/**
 * formatUrlSearch writes the search into a query string that already holds
 * the view (formatUrlView's output, where lat/lng are the camera's centre),
 * returning it with `?`. With a centre, lat/lng become the centre and the
 * camera moves to `view=` unless it looks at the centre (to 4 decimals).
 * Without one, the search parameters are removed.
 */
export function formatUrlSearch(search: UrlSearch, camera: { lat: number; lng: number }, base: string): string {
  const q = new URLSearchParams(base);
  if (search.centre) {
    const cam = `${round(camera.lat, 4)},${round(wrapLng(camera.lng), 4)}`;
    const centre = `${round(search.centre.lat, 4)},${round(wrapLng(search.centre.lng), 4)}`;
    q.set('lat', round(search.centre.lat, 4));
    q.set('lng', round(wrapLng(search.centre.lng), 4));
    q.set('radius', formatRadius(search.radius));
    if (cam === centre) q.delete('view');
    else q.set('view', cam);
  } else {
    q.delete('radius');
    q.delete('view');
  }
  if (search.noLocation) q.set('location', 'none');
  else q.delete('location');
  if (search.fanout) q.set('fanout', '1');
  else q.delete('fanout');
  return '?' + q.toString().replace(/%2C/g, ',');
}

/** radiusLabel writes a radius for people: "15 mi", "24.1 km". */
export function radiusLabel(r: { value: number; unit: RadiusUnit }): string {
  return `${Number(r.value.toFixed(r.value < 10 ? 2 : 1))} ${r.unit}`;
}

/** The side panel's tabs by id, in order; the first is the default (shell/panels.ts draws them). */
export const TABS = ['radius', 'live', 'nodes', 'review', 'migration', 'shards', 'about'] as const;
export type TabId = (typeof TABS)[number];

/** The panel state a link carries besides view and search. */
export interface UrlShell {
  tab: TabId;
  /** The Live switch. */
  live: boolean;
  /** Live's facet filters: values of the API's vocabulary, in its order. */
  filters: Record<FilterKind, readonly string[]>;
  /** `review=local`: reopen the candidate kept in this browser. */
  reviewLocal: boolean;
  /** The tour step shown (1-based), or null when the tour is not on. */
  tour: number | null;
}

export const DEFAULT_SHELL: Readonly<UrlShell> = Object.freeze({ tab: TABS[0], live: false, filters: { diet: [], allergen: [], cuisine: [] }, reviewLocal: false, tour: null });

/** parseUrlShell reads the panel parameters of a query string (with or without `?`); bad values are ignored with a message each. */
export function parseUrlShell(query: string): { shell: UrlShell; problems: string[] } {
  const q = new URLSearchParams(query);
  const problems: string[] = [];
  const shell: UrlShell = { ...DEFAULT_SHELL, filters: { diet: [], allergen: [], cuisine: [] } };
  const tab = q.get('tab');
  if (tab !== null) {
    if ((TABS as readonly string[]).includes(tab)) shell.tab = tab as TabId;
    else problems.push(`tab=${tab} is ignored: expected one of ${TABS.join(', ')}`);
  }
  const live = q.get('live');
  if (live !== null) {
    if (live === '1' || live === '0') shell.live = live === '1';
    else problems.push(`live=${live} is ignored: expected 1 (Live on) or 0`);
  }
  for (const kind of FILTER_KINDS) {
    const raw = q.get(kind);
    if (raw === null) continue;
    const valid = VOCABULARY[kind];
    const values = raw.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);
    const bad = values.filter((v) => !valid.includes(v));
    if (bad.length) problems.push(`${kind}: ${bad.map((b) => JSON.stringify(b)).join(', ')} ignored: expected values among ${valid.join(', ')}`);
    shell.filters[kind] = valid.filter((v) => values.includes(v));
  }
  const review = q.get('review');
  if (review !== null) {
    if (review === 'local') shell.reviewLocal = true;
    else problems.push(`review=${review} is ignored: expected review=local (the candidate kept in this browser)`);
  }
  const tour = q.get('tour');
  if (tour !== null) {
    const n = Number(tour);
    if (tour.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= TOUR_STEPS.length) shell.tour = n;
    else problems.push(`tour=${tour} is ignored: expected a tour step, an integer from 1 to ${TOUR_STEPS.length}`);
  }
  return { shell, problems };
}

/** formatUrlShell writes the panel state into a query string (returned with `?`), keeping the other parameters of base; defaults are left out. */
export function formatUrlShell(shell: UrlShell, base: string): string {
  const q = new URLSearchParams(base);
  if (shell.tab === TABS[0]) q.delete('tab');
  else q.set('tab', shell.tab);
  if (shell.live) q.set('live', '1');
  else q.delete('live');
  for (const kind of FILTER_KINDS) {
    const values = VOCABULARY[kind].filter((v) => shell.filters[kind].includes(v));
    if (values.length) q.set(kind, values.join(','));
    else q.delete(kind);
  }
  if (shell.reviewLocal) {
    // The candidate kept in this browser replaced the one the link named.
    q.set('review', 'local');
    q.delete('candidate');
  } else q.delete('review');
  if (shell.tour !== null) q.set('tour', String(shell.tour));
  else q.delete('tour');
  return '?' + q.toString().replace(/%2C/g, ',');
}

/** Everything a link says, read once by parseUrl. */
export interface ParsedUrl {
  /** The view; with a search centre, lat/lng are the camera's (view= or the centre). */
  view: UrlView;
  search: ParsedUrlSearch['search'];
  /** The side panel's state: tab, Live, filters, the kept candidate, the tour step. */
  shell: UrlShell;
  /** Whether the link sets the zoom itself (else a search's view fits the circle). */
  hasZoom: boolean;
  /** `debug=ordinal`: cells drawn by ordinal. */
  debugOrdinal: boolean;
  problems: string[];
}

/**
 * parseUrl reads a whole query string (with or without `?`): lat/lng are
 * the search centre when there is a radius (the camera then looks at view=,
 * or at the centre), else the view's centre.
 */
export function parseUrl(query: string): ParsedUrl {
  const { view, problems: viewProblems } = parseUrlView(query);
  const { search, camera, hasZoom, problems } = parseUrlSearch(query);
  if (search.centre) {
    const at = camera ?? search.centre;
    view.lat = at.lat;
    view.lng = at.lng;
  }
  const debugOrdinal = new URLSearchParams(query).get('debug') === 'ordinal';
  const { shell, problems: shellProblems } = parseUrlShell(query);
  return { view, search, shell, hasZoom, debugOrdinal, problems: [...viewProblems, ...problems, ...shellProblems] };
}

/** formatUrl writes the view and the search as a query string (with `?`), keeping the other parameters of base. */
export function formatUrl(view: UrlView, search: UrlSearch, base: string): string {
  return formatUrlSearch(search, view, formatUrlView(view, base));
}

/**
 * applyLink applies a query string's search (and, on back/forward, its view)
 * to the store: the radius goes into the search slice as the core's Radius,
 * the camera looks at the centre (or view=), zoomed to fit the circle when
 * the link has no zoom. At boot the view itself was applied by boot(); on
 * back/forward (atBoot false) it is applied here.
 */
export function applyLink(store: AppStore, query: string, atBoot: boolean): void {
  const { view, search, hasZoom } = parseUrl(query);
  const s = store.getState();
  if (!atBoot) {
    s.applyUrlView(view);
    s.frame.fly = null;
  }
  s.applyUrlSearch(search);
  if (search.centre) {
    s.setLayer('spin', false);
    // parseUrl put the camera on view= (or on the centre).
    s.setCamera(view.lat, view.lng);
    if (!hasZoom) s.setPendingFit(true);
  }
  s.frame.invalidate();
}

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
