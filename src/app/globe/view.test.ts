import { describe, it, expect } from 'vitest';
import { mulberry32, randomPoint } from '../../core/testutil';
import { rotation, projectLatLng, unprojectScreen, netCentreOf, clampFlatCentre, type ViewGeometry } from './view';

const base: ViewGeometry = { lat: 37.7749, lng: -122.4194, zoom: 1, morph: 0, flat: 'map', mapLat: 37.7749, net: [0, 0], width: 1280, height: 800 };
const close = (a: { lat: number; lng: number }, b: { lat: number; lng: number }, eps: number) => {
  expect(Math.abs(a.lat - b.lat)).toBeLessThan(eps);
  expect(Math.abs(((a.lng - b.lng + 540) % 360) - 180) * Math.cos((a.lat * Math.PI) / 180)).toBeLessThan(eps);
};

describe('view math', () => {
  it('rotates the centre point to face the camera with north up', () => {
    const m = rotation(37.7749, -122.4194);
    const lat = (37.7749 * Math.PI) / 180;
    const lng = (-122.4194 * Math.PI) / 180;
    const e = [Math.cos(lat) * Math.cos(lng), Math.cos(lat) * Math.sin(lng), Math.sin(lat)];
    const v = [0, 1, 2].map((r) => m[3 * r] * e[0] + m[3 * r + 1] * e[1] + m[3 * r + 2] * e[2]);
    expect(v[0]).toBeCloseTo(0, 12);
    expect(v[1]).toBeCloseTo(0, 12);
    expect(v[2]).toBeCloseTo(1, 12);
    // The north pole is above the centre.
    expect(m[5]).toBeGreaterThan(0);
  });

  it('puts the centre of the view at the middle of the canvas in every layout', () => {
    for (const [morph, flat] of [[0, 'map'], [1, 'map'], [1, 'net']] as const) {
      const v = { ...base, morph, flat, net: netCentreOf(base.lat, base.lng) };
      const p = projectLatLng(v, base.lat, base.lng);
      expect(p.x).toBeCloseTo(640, 3);
      expect(p.y).toBeCloseTo(400, 3);
      close(unprojectScreen(v, 640, 400)!, base, 1e-5);
    }
  });

  it('inverts projection on the globe, the map and the net for random visible points', () => {
    const rand = mulberry32(77);
    for (const [morph, flat, zoom] of [[0, 'map', 1], [0, 'map', 30], [1, 'map', 1.3], [1, 'net', 2]] as const) {
      const v = { ...base, morph, flat, zoom, net: netCentreOf(base.lat, base.lng) };
      let checked = 0;
      for (let k = 0; k < 3000; k++) {
        const pt = zoom > 10 ? { lat: base.lat + (rand() - 0.5) * 4, lng: base.lng + (rand() - 0.5) * 4 } : randomPoint(rand);
        const p = projectLatLng(v, pt.lat, pt.lng);
        if (!p.visible || p.x < 0 || p.y < 0 || p.x > v.width || p.y > v.height) continue;
        const back = unprojectScreen(v, p.x, p.y);
        if (!back) continue;
        close(back, pt, 1e-4);
        checked++;
      }
      expect(checked, `${flat} morph ${morph} zoom ${zoom}`).toBeGreaterThan(20);
    }
  });

  it('finds nothing off the globe, in the net gaps and mid-morph', () => {
    expect(unprojectScreen(base, 5, 5)).toBeNull();
    expect(unprojectScreen({ ...base, morph: 1, flat: 'net', net: [0, 0] }, 1270, 10)).toBeNull();
    expect(unprojectScreen({ ...base, morph: 0.5 }, 640, 400)).toBeNull();
  });

  it('centres a flat layout that fits and stops panning at its edges when zoomed in', () => {
    const fit = clampFlatCentre({ zoom: 1, width: 1280, height: 800, flat: 'map' }, 60, [3, 3]);
    expect(fit.mapLat).toBeCloseTo(0, 9);
    const zoomed = clampFlatCentre({ zoom: 4, width: 1280, height: 800, flat: 'map' }, 89, [0, 0]);
    // Zoomed in and pushed north, the map stops where the top edge of the canvas shows the pole.
    const v = { ...base, zoom: 4, morph: 1, flat: 'map' as const, mapLat: zoomed.mapLat };
    expect(unprojectScreen(v, 640, 0)!.lat).toBeCloseTo(90, 6);
    expect(unprojectScreen(v, 640, 400)!.lat).toBeLessThan(89);
    const net = clampFlatCentre({ zoom: 1, width: 1280, height: 800, flat: 'net' }, 0, [3, 3]);
    expect(net.net[0]).toBeCloseTo(Math.PI / 4, 9);
    expect(net.net[1]).toBeCloseTo(0, 9);
  });
});
