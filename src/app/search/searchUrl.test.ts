import { describe, it, expect } from 'vitest';
import { parseUrlSearch, formatUrlSearch, radiusLabel } from './searchUrl';
import { formatUrlView, parseUrlView } from '../shell/urlState';

describe('search URL state', () => {
  it('reads a shared search link: lat/lng are the centre, radius has its unit', () => {
    const { search, camera, hasZoom, problems } = parseUrlSearch('?lat=40.7143&lng=-74.006&radius=15mi');
    expect(problems).toEqual([]);
    expect(search).toEqual({ centre: { lat: 40.7143, lng: -74.006, label: '' }, radius: { value: 15, unit: 'mi' }, noLocation: false, fanout: false });
    expect(camera).toBeNull();
    expect(hasZoom).toBe(false);
  });

  it('reads kilometres, bare numbers as miles, no-location mode, the fan-out map and the camera', () => {
    expect(parseUrlSearch('lat=1&lng=2&radius=25km').search.radius).toEqual({ value: 25, unit: 'km' });
    expect(parseUrlSearch('lat=1&lng=2&radius=7').search.radius).toEqual({ value: 7, unit: 'mi' });
    const p = parseUrlSearch('lat=1&lng=2&radius=7mi&location=none&fanout=1&view=10.5,-20&zoom=30');
    expect(p.search.noLocation).toBe(true);
    expect(p.search.fanout).toBe(true);
    expect(p.camera).toEqual({ lat: 10.5, lng: -20 });
    expect(p.hasZoom).toBe(true);
  });

  it('opens no search when the link has no radius', () => {
    const p = parseUrlSearch('lat=40&lng=-74&zoom=3');
    expect(p.search.centre).toBeNull();
    expect(p.camera).toBeNull();
    expect(p.problems).toEqual([]);
  });

  it('ignores bad values one by one with a message naming the parameter, the value and what is valid', () => {
    const p = parseUrlSearch('lat=40&lng=-74&radius=2000km&location=here&fanout=yes&view=north');
    expect(p.search.centre).toBeNull();
    expect(p.problems).toHaveLength(4);
    expect(p.problems[0]).toMatch(/^radius=2000km is ignored: expected a radius such as 15mi or 25km, greater than 0 and at most 1000 km/);
    expect(p.problems[1]).toBe('location=here is ignored: expected location=none (a search with no location) or no location parameter');
    expect(p.problems[2]).toBe('fanout=yes is ignored: expected 1 (fan-out map on) or 0');
    expect(p.problems[3]).toBe("view=north is ignored: expected the view's centre as lat,lng in degrees, such as view=40.7,-74");
    expect(parseUrlSearch('radius=15mi').problems).toEqual(['radius is ignored: a search needs lat (in [-90, 90]) and lng (degrees) for its centre']);
  });

  it('writes the centre over the camera and the camera to view= only when it looks elsewhere', () => {
    const view = { lat: 40.7143, lng: -74.006, zoom: 210, level: 4, layers: ['shards' as const, 'grid' as const], flatten: 'globe' as const };
    const search = { centre: { lat: 40.7143, lng: -74.006, label: 'New York, NY' }, radius: { value: 15, unit: 'mi' as const }, noLocation: false, fanout: false };
    const at = formatUrlSearch(search, view, formatUrlView({ ...view, layers: [...view.layers] }));
    expect(at).toBe('?lat=40.7143&lng=-74.006&zoom=210&level=4&layers=shards,grid&radius=15mi');
    const away = formatUrlSearch(search, { lat: 30, lng: -100 }, formatUrlView({ ...view, lat: 30, lng: -100, layers: [...view.layers] }));
    expect(away).toBe('?lat=40.7143&lng=-74.006&zoom=210&level=4&layers=shards,grid&radius=15mi&view=30,-100');
    const p = parseUrlSearch(away);
    expect(p.search.centre).toMatchObject({ lat: 40.7143, lng: -74.006 });
    expect(p.camera).toEqual({ lat: 30, lng: -100 });
    expect(parseUrlView(away).view.zoom).toBe(210);
  });

  it('round-trips every search field and removes them all when the search is cleared', () => {
    const search = { centre: { lat: -33.8688, lng: 151.2093, label: '' }, radius: { value: 24.5, unit: 'km' as const }, noLocation: true, fanout: true };
    const q = formatUrlSearch(search, { lat: -33.8688, lng: 151.2093 }, '?boundaries=/x.json');
    expect(parseUrlSearch(q).search).toEqual(search);
    const cleared = formatUrlSearch({ ...search, centre: null, noLocation: false, fanout: false }, { lat: 0, lng: 0 }, q);
    expect(cleared).toBe('?boundaries=%2Fx.json&lat=-33.8688&lng=151.2093');
  });

  it('labels radii for people', () => {
    expect(radiusLabel({ value: 15, unit: 'mi' })).toBe('15 mi');
    expect(radiusLabel({ value: 24.14016, unit: 'km' })).toBe('24.1 km');
    expect(radiusLabel({ value: 2.5, unit: 'mi' })).toBe('2.5 mi');
  });
});
