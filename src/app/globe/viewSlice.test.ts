import { describe, it, expect, beforeEach } from 'vitest';
import { createAppStore } from '../shell/store';

/** A store of the test's own, made afresh before each test. */
let appStore = createAppStore();
const resetAppStore = () => void (appStore = createAppStore());
import { urlViewOf } from './viewSlice';
import { readyData } from '../shell/dataSlice';
import { fileWithCuts } from '../../core/testutil';
import { Router } from '../../core/index';
import { DEFAULT_VIEW, MAX_ZOOM, MIN_ZOOM } from '../shell/url';
import { shardColor } from '../shell/palette';

const s = () => appStore.getState();

describe('the view slice', () => {
  beforeEach(() => resetAppStore());

  it('starts on the default view', () => {
    expect(urlViewOf(s())).toEqual(DEFAULT_VIEW);
  });

  it('keeps zoom and level in range', () => {
    s().setZoom(1e9);
    expect(s().zoom).toBe(MAX_ZOOM);
    s().zoomBy(1e-12);
    expect(s().zoom).toBe(MIN_ZOOM);
    s().setLevel(11.6);
    expect(s().level).toBe(10);
    s().setLevel(-3);
    expect(s().level).toBe(0);
  });

  it('wraps the camera longitude and clamps its latitude', () => {
    s().setCamera(95, 200);
    expect(s().camera).toEqual({ lat: 90, lng: -160 });
  });

  it('toggles one layer at a time and leaves the others', () => {
    const before = { ...s().layers };
    s().toggleLayer('hilbert');
    expect(s().layers).toEqual({ ...before, hilbert: !before.hilbert });
  });

  it('does not notify subscribers when a value is set to what it already is', () => {
    let calls = 0;
    const stop = appStore.subscribe(() => calls++);
    s().setCamera(s().camera.lat, s().camera.lng);
    s().setLayer('shards', s().layers.shards);
    s().setHighlight(s().highlight);
    stop();
    expect(calls).toBe(0);
  });

  it('applies a view from a link and gives it back unchanged', () => {
    const view = { lat: -33.8688, lng: 151.2093, zoom: 12.5, level: 7, layers: ['hilbert' as const, 'land' as const], flatten: 'net' as const };
    s().applyUrlView(view);
    expect(urlViewOf(s())).toEqual(view);
  });
});

describe('the data slice', () => {
  beforeEach(() => resetAppStore());

  it('is loading until a boundary file is set, then ready with colors and weights', () => {
    expect(readyData(s())).toBeNull();
    const file = fileWithCuts([1000, 2_000_000]);
    file.shards = file.shards.map((x, i) => ({ ...x, restaurants: i + 1, dishes: 10 * (i + 1) }));
    s().setBoundaries(file, new Router(fileWithCuts([1000, 2_000_000])), '/data/test.json');
    const d = readyData(s())!;
    expect(d.colors).toEqual([0, 1, 2].map(shardColor));
    expect(d.weights).toEqual([11, 22, 33]);
  });

  it('has no weights when the file has no counts', () => {
    const file = fileWithCuts([5]);
    s().setBoundaries(file, new Router(file), 'x');
    expect(readyData(s())!.weights).toBeNull();
  });

  it('keeps the problems of an invalid file', () => {
    s().setDataError('x.json is not a valid boundary file', ['format: "nope" is not supported']);
    expect(s().data).toEqual({ status: 'error', title: 'x.json is not a valid boundary file', problems: ['format: "nope" is not supported'] });
  });
});
