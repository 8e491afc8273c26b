/**
 * The radius search's parameters of the link (its entry `url.search` in src/app/features.ts;
 * shell/linkCodec.ts loops over the list): `radius` with lat/lng as its centre, `location=none`,
 * `fanout=1` (the fan-out map's switch is a field of this slice) and `view=`, the camera's
 * centre when it does not look at the search's. Written with the view, a history entry per
 * new centre, no-location or fan-out switch, and per new radius unless the radius changed less
 * than a second before (a slider drag is one entry).
 */
import { parseRadius, formatRadius, type Radius } from '../../core/index';
import { wrapLng, roundTo as round } from '../shell/url';
import type { SearchParams } from '../shell/linkCodec';
import { DEFAULT_RADIUS, type SearchCentre } from './searchSlice';

/** The search part of a link. */
declare module '../shell/linkCodec' {
  interface UrlSearch {
    /** Null when the link has no radius (or no valid lat/lng with it). */
    centre: SearchCentre | null;
    /** The core's Radius, as parseRadius read it (the default radius when the link has none). */
    radius: Radius;
    noLocation: boolean;
    fanout: boolean;
  }
}

export const SEARCH_URL: SearchParams = {
  keys: ['radius', 'location', 'fanout', 'view'],
  still: ['radius', 'location'],
  defaults: () => ({ centre: null, radius: { ...DEFAULT_RADIUS }, noLocation: false, fanout: false }),
  parse(q, into, problems) {
    const search = into.search;
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
    const view = q.get('view');
    if (view !== null) {
      const m = /^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$/.exec(view);
      const vl = m ? Number(m[1]) : NaN;
      const vg = m ? Number(m[2]) : NaN;
      if (!m || !Number.isFinite(vl) || Math.abs(vl) > 90 || !Number.isFinite(vg)) problems.push(`view=${view} is ignored: expected the view's centre as lat,lng in degrees, such as view=40.7,-74`);
      else if (search.centre) into.camera = { lat: vl, lng: wrapLng(vg) };
    }
  },
  format({ search, camera }, q) {
    if (search.centre) {
      const cam = camera ? `${round(camera.lat, 4)},${round(wrapLng(camera.lng), 4)}` : null;
      const centre = `${round(search.centre.lat, 4)},${round(wrapLng(search.centre.lng), 4)}`;
      q.set('lat', round(search.centre.lat, 4));
      q.set('lng', round(wrapLng(search.centre.lng), 4));
      q.set('radius', formatRadius(search.radius));
      if (cam === null || cam === centre) q.delete('view');
      else q.set('view', cam);
    } else {
      q.delete('radius');
      q.delete('view');
    }
    if (search.noLocation) q.set('location', 'none');
    else q.delete('location');
    if (search.fanout) q.set('fanout', '1');
    else q.delete('fanout');
  },
  of: (s) => ({ centre: s.searchCentre, radius: s.searchRadius, noLocation: s.noLocation, fanout: s.fanout }),
  apply(store, { view, search, hasZoom }) {
    const s = store.getState();
    s.applyUrlSearch(search);
    if (search.centre) {
      s.setLayer('spin', false);
      // parseUrl put the camera on view= (or on the centre).
      s.setCamera(view.lat, view.lng);
      if (!hasZoom) s.setPendingFit(true);
    }
  },
  history: {
    step: (s) => JSON.stringify([s.searchCentre?.lat, s.searchCentre?.lng, s.noLocation, s.fanout]),
    drag: (s) => `${s.searchRadius.value}${s.searchRadius.unit}`,
  },
};
