import { describe, it, expect } from 'vitest';
import { coveringExport, coveringFileName, workedExport } from './export';
import { computeCovering, routeOfAnswer } from '../globe/coveringWorker';
import { Router, KM_PER_MILE } from '../../core/index';
import { parseRadii, workedSearches } from '../../core/searches';
import { COVERING_CSV_HEADER, WORKED_SEARCHES_CSV_HEADER } from '../../core/exports';
import { fileWithCuts } from '../../core/testutil';

const router = new Router(fileWithCuts([2_000_000, 2_500_000]));

describe('explorer exports', () => {
  const a = computeCovering(router, 40.7143, -74.006, 15 * KM_PER_MILE);
  const c = { lat: a.lat, lng: a.lng, radiusKm: a.radiusKm, hash: a.hash, route: routeOfAnswer(a), ordinals: a.ordinals, corners: a.corners, ms: 0 };
  const radius = { value: 15, unit: 'mi' as const };

  it('names files after the centre and the radius', () => {
    expect(coveringFileName(c, radius, 'geojson')).toBe('covering-40.7143_-74.006-15mi.geojson');
  });

  it('exports the covering as GeoJSON with one feature per cell, its token and shard, and the search', () => {
    const f = coveringExport(router, c, radius, 'geojson');
    expect(f.type).toBe('application/geo+json');
    const gj = JSON.parse(f.text);
    expect(gj.type).toBe('FeatureCollection');
    expect(gj.features).toHaveLength(a.ordinals.length);
    expect(gj.geoshard.routing).toBe(a.routing);
    expect(gj.geoshard.search).toEqual({ lat: 40.7143, lng: -74.006, radius: '15mi', radiusKm: 15 * KM_PER_MILE });
    expect(new Set(gj.features.map((x: { properties: { shard: string } }) => x.properties.shard))).toEqual(new Set(a.shards.map((s) => s.name)));
  });

  it('exports the covering as CSV, one row per cell after the header', () => {
    const f = coveringExport(router, c, radius, 'csv');
    const lines = f.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(COVERING_CSV_HEADER);
    expect(lines).toHaveLength(a.ordinals.length + 1);
  });

  it('exports the worked searches as the core CSV', () => {
    const rows = workedSearches(router, [{ name: 'New York', state: 'NY', lat: 40.7143, lng: -74.006 }], parseRadii('5,15'));
    const f = workedExport(rows);
    expect(f.text.split('\r\n')[0]).toBe(WORKED_SEARCHES_CSV_HEADER);
    expect(f.text.trimEnd().split('\r\n')).toHaveLength(3);
  });
});
