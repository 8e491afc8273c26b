import { describe, it, expect } from 'vitest';
import { DEFAULT_VIEW, LAYERS, TABS, formatUrlView, parseUrlView, radiusLabel, wrapLng } from './url';
import { DEFAULT_SHELL, formatUrl, formatUrlSearch, formatUrlShell, parseUrl, parseUrlSearch, parseUrlShell } from './linkCodec';
import { VOCABULARY } from '../../server/wire';
import { TOUR_STEPS } from '../tour/steps';
import { KM_PER_MILE } from '../../core/index';
import { formatLevelReadout, formatZoom, formatLatLng, formatCompact } from './format';

describe('URL state', () => {
  it('reads every field of a shared link', () => {
    const { view, problems } = parseUrlView('?lat=37.7749&lng=-122.4194&zoom=40&level=7&layers=shards,hilbert&flatten=net');
    expect(problems).toEqual([]);
    expect(view).toEqual({ lat: 37.7749, lng: -122.4194, zoom: 40, level: 7, layers: ['shards', 'hilbert'], flatten: 'net' });
  });

  it('opens the default view when the link has no parameters', () => {
    expect(parseUrlView('').view).toEqual(DEFAULT_VIEW);
  });

  it('ignores bad values one by one with a message naming the parameter, the value and what is valid', () => {
    const { view, problems } = parseUrlView('lat=95&lng=abc&zoom=0&level=4.5&layers=shards,sea&flatten=sphere');
    expect(view.lat).toBe(DEFAULT_VIEW.lat);
    expect(view.level).toBe(DEFAULT_VIEW.level);
    expect(view.layers).toEqual(['shards']);
    expect(view.flatten).toBe('globe');
    expect(problems).toEqual([
      'lat=95 is ignored: expected a latitude in [-90, 90] degrees',
      'lng=abc is ignored: expected a longitude in degrees',
      'zoom=0 is ignored: expected a zoom factor in [0.5, 2000] (1 = 100%)',
      'level=4.5 is ignored: expected an S2 level, an integer in [0, 10]',
      `layers: "sea" ignored: layers are ${LAYERS.join(', ')}`,
      'flatten=sphere is ignored: expected map or net (or no flatten for the globe)',
    ]);
  });

  it('turns all layers off with an empty layers value', () => {
    expect(parseUrlView('layers=').view.layers).toEqual([]);
  });

  it('round-trips a view through the query string, keeping other parameters', () => {
    const view = { lat: -33.8688, lng: 151.2093, zoom: 12.5, level: 0, layers: ['grid', 'land'] as const, flatten: 'map' as const };
    const search = formatUrlView({ ...view, layers: [...view.layers] }, '?boundaries=/x.json');
    expect(search).toBe('?boundaries=%2Fx.json&lat=-33.8688&lng=151.2093&zoom=12.5&level=0&layers=grid,land&flatten=map');
    expect(parseUrlView(search).view).toEqual({ ...view, layers: ['grid', 'land'] });
  });

  it('wraps longitudes into [-180, 180)', () => {
    expect(wrapLng(190)).toBe(-170);
    expect(wrapLng(-190)).toBe(170);
    expect(wrapLng(180)).toBe(-180);
    expect(wrapLng(720)).toBe(0);
    expect(parseUrlView('lng=200').view.lng).toBe(-160);
  });
});

describe('readout formatting', () => {
  it('writes the level readout with 6·4^level cells', () => {
    expect(formatLevelReadout(4)).toBe('drawn at L4 · 1,536 cells');
    expect(formatLevelReadout(10)).toBe('drawn at L10 · 6,291,456 cells');
    expect(formatLevelReadout(0)).toBe('drawn at L0 · 6 cells');
  });

  it('writes zoom as a percentage, coordinates with hemispheres and counts compactly', () => {
    expect(formatZoom(1)).toBe('100%');
    expect(formatZoom(12.5)).toBe('1,250%');
    expect(formatLatLng(37.7749, -122.4194)).toBe('37.7749° N, 122.4194° W');
    expect(formatCompact(1234567)).toBe('1.2M');
    expect(formatCompact(999)).toBe('999');
  });
});

describe('search URL state', () => {
  it('reads a shared search link: lat/lng are the centre, radius has its unit', () => {
    const { search, camera, hasZoom, problems } = parseUrlSearch('?lat=40.7143&lng=-74.006&radius=15mi');
    expect(problems).toEqual([]);
    expect(search).toEqual({ centre: { lat: 40.7143, lng: -74.006, label: '' }, radius: { value: 15, unit: 'mi', km: 15 * KM_PER_MILE }, noLocation: false, fanout: false });
    expect(camera).toBeNull();
    expect(hasZoom).toBe(false);
  });

  it('reads kilometres, bare numbers as miles, no-location mode, the fan-out map and the camera', () => {
    expect(parseUrlSearch('lat=1&lng=2&radius=25km').search.radius).toEqual({ value: 25, unit: 'km', km: 25 });
    expect(parseUrlSearch('lat=1&lng=2&radius=7').search.radius).toEqual({ value: 7, unit: 'mi', km: 7 * KM_PER_MILE });
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
    const search = { centre: { lat: 40.7143, lng: -74.006, label: 'New York, NY' }, radius: { value: 15, unit: 'mi' as const, km: 15 * KM_PER_MILE }, noLocation: false, fanout: false };
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
    const search = { centre: { lat: -33.8688, lng: 151.2093, label: '' }, radius: { value: 24.5, unit: 'km' as const, km: 24.5 }, noLocation: true, fanout: true };
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

describe('what a link opens: spin, panels, tour', () => {
  it('spins only on the bare first screen: a place, a search, a candidate or a tour step opens still', () => {
    expect(parseUrl('').view.layers).toContain('spin');
    expect(parseUrl('?level=5').view.layers).toContain('spin');
    for (const q of ['?lat=10&lng=20', '?view=1,2', '?lat=37.7749&lng=-122.4194&radius=15mi', '?location=none', '?candidate=/c.json', '?review=local', '?tour=2', '?lat=1&lng=2&layers=shards,spin']) {
      expect(parseUrl(q).view.layers, q).not.toContain('spin');
    }
  });

  it('writes no centre for a spinning view, so the address bar does not drift while the globe turns', () => {
    const q = formatUrlView({ ...DEFAULT_VIEW, layers: [...DEFAULT_VIEW.layers], lng: -71.25 }, '?lat=1&lng=2');
    expect(new URLSearchParams(q).has('lat')).toBe(false);
    expect(new URLSearchParams(q).has('lng')).toBe(false);
    expect(new URLSearchParams(q).get('layers')).toBe('shards,grid,land,labels,spin');
  });

  it('shows the default layers when a layers value names none that exist', () => {
    const { view, problems } = parseUrlView('layers=foo');
    expect(view.layers).toEqual(DEFAULT_VIEW.layers);
    expect(problems).toEqual([`layers: "foo" ignored: layers are ${LAYERS.join(', ')}`]);
  });

  it('names each ignored parameter of a bad link, and the rewritten link holds only what is shown', () => {
    const parsed = parseUrl('?level=12&zoom=abc&lat=95&layers=foo&tab=maps&tour=0');
    expect(parsed.problems).toEqual([
      'lat=95 is ignored: expected a latitude in [-90, 90] degrees',
      'zoom=abc is ignored: expected a zoom factor in [0.5, 2000] (1 = 100%)',
      'level=12 is ignored: expected an S2 level, an integer in [0, 10]',
      `layers: "foo" ignored: layers are ${LAYERS.join(', ')}`,
      `tab=maps is ignored: expected one of ${TABS.join(', ')}`,
      `tour=0 is ignored: expected a tour step, an integer from 1 to ${TOUR_STEPS.length}`,
    ]);
    const rewritten = formatUrlShell(parsed.shell, formatUrl(parsed.view, parsed.search, '?level=12&zoom=abc&lat=95&layers=foo&tab=maps&tour=0'));
    const again = parseUrl(rewritten);
    expect(again.problems).toEqual([]);
    expect(again.view.level).toBe(DEFAULT_VIEW.level);
    expect(again.view.zoom).toBe(DEFAULT_VIEW.zoom);
    expect(new URLSearchParams(rewritten).has('tab')).toBe(false);
    expect(new URLSearchParams(rewritten).has('tour')).toBe(false);
  });

  it('round-trips the tab, the Live switch, the facet filters, the kept candidate and the tour step', () => {
    const shell = { tab: 'live' as const, live: true, filters: { diet: ['vegan'], allergen: [], cuisine: ['thai', 'indian'] }, reviewLocal: true, tour: 3 };
    const q = formatUrlShell(shell, '?lat=1&lng=2');
    expect(q).toMatch(/^\?lat=1&lng=2&tab=live&live=1&diet=vegan&cuisine=/);
    const back = parseUrlShell(q);
    expect(back.problems).toEqual([]);
    // Filter values come back in the API's vocabulary order, the order the server canonicalises to.
    expect(back.shell).toEqual({ ...shell, filters: { diet: ['vegan'], allergen: [], cuisine: VOCABULARY.cuisine.filter((c) => c === 'thai' || c === 'indian') } });
    expect(formatUrlShell(DEFAULT_SHELL, '?tab=live&live=1&diet=vegan&review=local&tour=2')).toBe('?');
    // A candidate kept in this browser replaces the one a link named (a reload reopens the kept one).
    expect(formatUrlShell({ ...DEFAULT_SHELL, reviewLocal: true }, '?candidate=/c.json')).toBe('?review=local');
  });

  it('ignores facet values outside the API vocabulary, naming them and the valid ones', () => {
    const { shell, problems } = parseUrlShell('diet=vegan,meaty');
    expect(shell.filters.diet).toEqual(['vegan']);
    expect(problems).toEqual([`diet: "meaty" ignored: expected values among ${VOCABULARY.diet.join(', ')}`]);
  });

  it('lists the same tabs as the side panel', async () => {
    const { PANELS } = await import('./panels');
    expect(PANELS.map((p) => p.id)).toEqual([...TABS]);
  });
});
