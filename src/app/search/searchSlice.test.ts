import { describe, it, expect } from 'vitest';
import { createAppStore } from '../shell/store';
import { maxRadiusIn, DEFAULT_RADIUS } from './searchSlice';
import { searchAsked } from '../shell/searchAsked';
import { KM_PER_MILE, MAX_RADIUS_KM, Router, cellAt, cellOrdinal, type CircleRoute } from '../../core/index';
import { fileWithCuts } from '../../core/testutil';

describe('search slice', () => {
  it('opens with no centre, 15 miles, location on and the fan-out map off', () => {
    const s = createAppStore().getState();
    expect(s.searchCentre).toBeNull();
    expect(s.searchRadius).toEqual({ value: 15, unit: 'mi', km: 15 * KM_PER_MILE });
    expect(DEFAULT_RADIUS).toEqual({ value: 15, unit: 'mi', km: 15 * KM_PER_MILE });
    expect(s.noLocation).toBe(false);
    expect(s.fanout).toBe(false);
    expect(s.covering).toBeNull();
  });

  it('wraps the centre longitude, clamps latitude and leaves no-location mode when a centre is set', () => {
    const store = createAppStore();
    store.getState().setNoLocation(true);
    store.getState().setSearchCentre(95, 190, 'far');
    expect(store.getState().searchCentre).toEqual({ lat: 90, lng: -170, label: 'far' });
    expect(store.getState().noLocation).toBe(false);
  });

  it('does not notify subscribers when the same centre or radius is set again', () => {
    const store = createAppStore();
    store.getState().setSearchCentre(40.7, -74, 'New York, NY');
    let calls = 0;
    store.subscribe(() => calls++);
    store.getState().setSearchCentre(40.7, -74, 'New York, NY');
    store.getState().setSearchRadius(15);
    expect(calls).toBe(0);
  });

  it('keeps the radius within the core maximum in either unit', () => {
    const store = createAppStore();
    store.getState().setSearchRadius(5000, 'km');
    expect(store.getState().searchRadius).toEqual({ value: MAX_RADIUS_KM, unit: 'km', km: MAX_RADIUS_KM });
    store.getState().setSearchRadius(5000, 'mi');
    expect(store.getState().searchRadius.km).toBeCloseTo(MAX_RADIUS_KM, 9);
    expect(maxRadiusIn('mi')).toBeCloseTo(MAX_RADIUS_KM / KM_PER_MILE, 9);
    store.getState().setSearchRadius(-3);
    expect(store.getState().searchRadius.value).toBeGreaterThan(0);
  });

  it('converts the value when the unit switches so the circle keeps its size (to 0.1)', () => {
    const store = createAppStore();
    store.getState().setSearchRadius(50, 'mi');
    store.getState().setRadiusUnit('km');
    expect(store.getState().searchRadius).toEqual({ value: 80.5, unit: 'km', km: 80.5 });
    store.getState().setRadiusUnit('mi');
    expect(store.getState().searchRadius).toEqual({ value: 50, unit: 'mi', km: 50 * KM_PER_MILE });
  });

  it('asks every shard in no-location mode and the covering shards otherwise, as a stable object', () => {
    const store = createAppStore();
    const ny = cellOrdinal(cellAt(40.7143, -74.006));
    const file = fileWithCuts([ny - 40, ny + 3]);
    const router = new Router(file);
    store.getState().setBoundaries(file, router, 'test');
    expect(searchAsked(store.getState())).toBeNull();
    store.getState().setNoLocation(true);
    const all = searchAsked(store.getState())!;
    expect(all.all).toBe(true);
    expect(all.indices).toEqual(router.shards.map((s) => s.index));
    expect(all.routing).toBe(router.allShardsRouting());
    expect(searchAsked(store.getState())).toBe(all);
    store.getState().setSearchCentre(40.7143, -74.006, 'New York, NY');
    const route: CircleRoute = router.cover(40.7143, -74.006, 50 * KM_PER_MILE);
    store.getState().setCovering({ lat: 40.7143, lng: -74.006, radiusKm: 50 * KM_PER_MILE, hash: file.hash, route, ordinals: new Int32Array(0), corners: new Float32Array(0), ms: 0 });
    const asked = searchAsked(store.getState())!;
    expect(asked.all).toBe(false);
    expect(asked.indices).toEqual(route.shards.map((s) => s.index));
    expect(asked.routing).toBe(route.routing);
    expect(asked.indices.length).toBeGreaterThan(1);
  });
});
