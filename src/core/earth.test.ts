import { describe, it, expect } from 'vitest';
import { s2 } from 's2js';
import { EARTH_RADIUS_KM, KM_PER_DEGREE, RAD_PER_DEG, wrapLng, unitDistanceKm, distanceKm } from './earth.ts';
import { mulberry32, randomPoint } from './testutil.ts';

const unit = (lat: number, lng: number) => [Math.cos(lat * RAD_PER_DEG) * Math.cos(lng * RAD_PER_DEG), Math.cos(lat * RAD_PER_DEG) * Math.sin(lng * RAD_PER_DEG), Math.sin(lat * RAD_PER_DEG)] as const;

describe('the Earth model', () => {
  it('is the IUGG mean radius, 111.195 km per degree', () => {
    expect(EARTH_RADIUS_KM).toBe(6371.0088);
    expect(KM_PER_DEGREE).toBeCloseTo(111.19508, 5);
  });

  it('measures great-circle distances as the haversine formula does, antipodes included', () => {
    const rand = mulberry32(6);
    for (let k = 0; k < 500; k++) {
      const a = randomPoint(rand);
      const b = randomPoint(rand);
      const r = Math.PI / 180;
      const h = Math.sin(((b.lat - a.lat) * r) / 2) ** 2 + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.sin(((b.lng - a.lng) * r) / 2) ** 2;
      const want = 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
      expect(unitDistanceKm(...unit(a.lat, a.lng), ...unit(b.lat, b.lng))).toBeCloseTo(want, 6);
    }
    expect(unitDistanceKm(...unit(10, 20), ...unit(-10, -160))).toBeCloseTo(Math.PI * 6371.0088, 6);
  });

  it('wraps longitudes into [-180, 180) and leaves those there alone', () => {
    expect([wrapLng(-180), wrapLng(179.5), wrapLng(180), wrapLng(190), wrapLng(-190), wrapLng(540), wrapLng(-540)]).toEqual([-180, 179.5, -180, -170, 170, -180, -180]);
  });
});

describe('distanceKm', () => {
  it('agrees with the S2 library’s angle between the points on the same Earth radius', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 200; i++) {
      const [a, b, c, d] = [180 * rand() - 90, 360 * rand() - 180, 180 * rand() - 90, 360 * rand() - 180];
      const s2km = s2.LatLng.fromDegrees(a, b).distance(s2.LatLng.fromDegrees(c, d)) * EARTH_RADIUS_KM;
      expect(distanceKm(a, b, c, d)).toBeCloseTo(s2km, 6);
    }
  });
});
