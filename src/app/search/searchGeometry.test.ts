import { describe, it, expect } from 'vitest';
import { circleOutline, fitZoom, FIT_FRACTION } from './searchGeometry';
import { centreLabel, cityLabel } from '../shell/format';
import { EARTH_RADIUS_KM, KM_PER_MILE } from '../../core/index';
import { baseScale } from '../globe/view';
import { MAX_ZOOM } from '../shell/url';

/** Haversine distance in km (an independent formula from the outline's destination-point one). */
function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(a));
}

describe('search circle geometry', () => {
  it('puts every outline point at the radius from the centre, starting due north', () => {
    for (const [lat, lng, km] of [
      [40.7143, -74.006, 80.47],
      [-33.9, 151.2, 5],
      [89.5, 0, 200],
      [0, 179.9, 100],
    ]) {
      const pts = circleOutline(lat, lng, km, 64);
      for (let i = 0; i < 64; i++) {
        const d = haversineKm(lat, lng, (pts[2 * i] * 180) / Math.PI, (pts[2 * i + 1] * 180) / Math.PI);
        expect(Math.abs(d - km)).toBeLessThan(km * 1e-4 + 1e-3);
      }
      if (lat < 89) {
        expect((pts[0] * 180) / Math.PI).toBeGreaterThan(lat);
        expect((pts[1] * 180) / Math.PI).toBeCloseTo(lng, 3);
      }
    }
  });

  it('draws a true circle at exactly the poles: every point at the radius, evenly spaced around the pole', () => {
    // A circle of radius r around a pole is the parallel at 90° − r/R (in radians of arc), cut
    // into n equal arcs: every chord between neighbours is 2·R·cos(lat)·sin(π/n) apart.
    const km = 24.14;
    const n = 72;
    for (const lat of [90, -90]) {
      for (const lng of [0, -122.4194, 180]) {
        const pts = circleOutline(lat, lng, km, n);
        const ring = (Math.sign(lat) * (90 - ((km / EARTH_RADIUS_KM) * 180) / Math.PI) * Math.PI) / 180;
        const chord = 2 * EARTH_RADIUS_KM * Math.cos(ring) * Math.sin(Math.PI / n);
        for (let i = 0; i < n; i++) {
          const j = (i + 1) % n;
          expect(pts[2 * i], `lat ${lat}: point ${i} on the parallel`).toBeCloseTo(ring, 6); // float32 output
          const d = haversineKm((pts[2 * i] * 180) / Math.PI, (pts[2 * i + 1] * 180) / Math.PI, (pts[2 * j] * 180) / Math.PI, (pts[2 * j + 1] * 180) / Math.PI);
          expect(Math.abs(d - chord), `lat ${lat}: points ${i} and ${j}`).toBeLessThan(chord * 1e-3);
        }
      }
    }
  });

  it('zooms so the circle spans the fit fraction of the smaller side of the view', () => {
    const km = 15 * KM_PER_MILE;
    const z = fitZoom(km, 'globe', 1000, 700);
    const px = Math.sin(km / EARTH_RADIUS_KM) * baseScale('globe', 1000, 700) * z;
    expect((2 * px) / 700).toBeCloseTo(FIT_FRACTION, 6);
    const zm = fitZoom(km, 'map', 1000, 700);
    expect((2 * (km / EARTH_RADIUS_KM) * baseScale('map', 1000, 700) * zm) / 700).toBeCloseTo(FIT_FRACTION, 6);
    expect(fitZoom(0.5, 'globe', 1000, 700)).toBe(MAX_ZOOM);
  });

  it('names a centre by the sample city there, else by its coordinates', () => {
    const cities = [{ name: 'New York', state: 'NY', lat: 40.7143, lng: -74.006 }, { name: 'Lyon', state: '', lat: 45.75, lng: 4.85 }];
    expect(centreLabel(40.7143, -74.006, cities)).toBe('New York, NY');
    expect(centreLabel(45.75, 4.85, cities)).toBe('Lyon');
    expect(centreLabel(40.8, -74.006, cities)).toBe('40.8000° N, 74.0060° W');
    expect(cityLabel({ name: 'Paris', state: 'TX' })).toBe('Paris, TX');
  });
});
