/**
 * The radius search in the URL, beside the globe's view (urlState.ts):
 * `?lat=40.7143&lng=-74.006&radius=15mi&zoom=210&level=4&layers=shards,grid,land,labels`.
 *
 * With a `radius`, lat/lng are the search centre (degrees) rather than the
 * view's centre: the camera opens on the circle, and `view=lat,lng` records
 * where it looks only when that is elsewhere; without `zoom` the view zooms
 * so the circle fills it. radius is a positive number with the unit `mi` or
 * `km` (a bare number is miles), at most MAX_RADIUS_KM. `location=none` is
 * the "no location" mode (no circle: every shard is asked); `fanout=1` turns
 * the fan-out map on. Bad values are ignored one by one with a message naming
 * the parameter, its value and what is valid, as urlState.ts does.
 */
import { parseRadius, formatRadius, type RadiusUnit } from '../../core/index';
import { wrapLng } from '../shell/urlState';
import type { SearchCentre, SearchRadius } from './searchSlice';
import { DEFAULT_RADIUS } from './searchSlice';

/** The search part of a link. */
export interface UrlSearch {
  /** Null when the link has no radius (or no valid lat/lng with it). */
  centre: SearchCentre | null;
  radius: SearchRadius;
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

const round4 = (v: number) => String(Number(v.toFixed(4)));

/** parseUrlSearch reads the search parameters of a query string (with or without `?`). */
export function parseUrlSearch(query: string): ParsedUrlSearch {
  const q = new URLSearchParams(query);
  const problems: string[] = [];
  const search: UrlSearch = { centre: null, radius: { ...DEFAULT_RADIUS }, noLocation: false, fanout: false };
  let hasRadius = false;
  const rawRadius = q.get('radius');
  if (rawRadius !== null) {
    try {
      const r = parseRadius(rawRadius, 'mi', 'radius');
      search.radius = { value: r.value, unit: r.unit };
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
    const cam = `${round4(camera.lat)},${round4(wrapLng(camera.lng))}`;
    const centre = `${round4(search.centre.lat)},${round4(wrapLng(search.centre.lng))}`;
    q.set('lat', round4(search.centre.lat));
    q.set('lng', round4(wrapLng(search.centre.lng)));
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
