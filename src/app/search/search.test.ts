import { describe, it, expect } from 'vitest';
import { wantedCircle } from './search';
import { formatUrlState, parseUrlSearch } from '../shell/linkCodec';
import { parseUrlView } from '../shell/url';
import { createAppStore } from '../shell/store';
import { KM_PER_MILE } from '../../core/index';

describe('the search as the worker and the link see it', () => {
  it('asks for a circle only with a centre and outside no-location mode, in km', () => {
    const store = createAppStore();
    expect(wantedCircle(store.getState())).toBeNull();
    store.getState().setSearchCentre(40.7143, -74.006, 'New York, NY');
    store.getState().setSearchRadius(50, 'mi');
    expect(wantedCircle(store.getState())).toEqual({ lat: 40.7143, lng: -74.006, radiusKm: 50 * KM_PER_MILE });
    store.getState().setNoLocation(true);
    expect(wantedCircle(store.getState())).toBeNull();
  });

  it('writes view and search into one link that reads back to the same state', () => {
    const store = createAppStore();
    const s = store.getState();
    s.setSearchCentre(37.7749, -122.4194, 'San Francisco, CA');
    s.setSearchRadius(25, 'km');
    s.setCamera(36, -100);
    s.setZoom(12);
    s.setFanout(true);
    const q = formatUrlState(store.getState(), '?boundaries=/b.json');
    const { search, camera } = parseUrlSearch(q);
    expect(search).toEqual({ centre: { lat: 37.7749, lng: -122.4194, label: '' }, radius: { value: 25, unit: 'km', km: 25 }, noLocation: false, fanout: true });
    expect(camera).toEqual({ lat: 36, lng: -100 });
    expect(parseUrlView(q).view.zoom).toBe(12);
    expect(new URLSearchParams(q).get('boundaries')).toBe('/b.json');
  });
});
