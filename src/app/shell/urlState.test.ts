import { describe, it, expect } from 'vitest';
import { parseUrlView, formatUrlView, wrapLng, DEFAULT_VIEW, LAYERS } from './urlState';
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
