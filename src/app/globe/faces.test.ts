import { describe, it, expect } from 'vitest';
import s2geometry from 's2-geometry';
import { faceSTAt, latLngOfFaceST } from './faces';
import { cellAt, cellFace } from '../../core/cells';
import { mulberry32, randomPoint } from '../../core/testutil';

// s2-geometry is an independent JavaScript implementation of S2's projection: the oracle
// for point → face → (u, v) → (s, t).
const { S2 } = s2geometry as unknown as {
  S2: { LatLngToXYZ(ll: { lat: number; lng: number }): number[]; XYZToFaceUV(xyz: number[]): [number, [number, number]]; UVToST(uv: [number, number]): [number, number] };
};

describe('faces', () => {
  it('agrees with s2-geometry on the face and (s, t) of 5,000 seeded random points', () => {
    const rand = mulberry32(31);
    for (let k = 0; k < 5000; k++) {
      const { lat, lng } = randomPoint(rand);
      const [face, uv] = S2.XYZToFaceUV(S2.LatLngToXYZ({ lat, lng }));
      const [s, t] = S2.UVToST(uv);
      const ours = faceSTAt(lat, lng);
      expect(ours.face, `${lat},${lng}`).toBe(face);
      expect(Math.abs(ours.s - s)).toBeLessThan(1e-8);
      expect(Math.abs(ours.t - t)).toBeLessThan(1e-8);
      expect(ours.face).toBe(cellFace(cellAt(lat, lng)));
    }
  });

  it('maps the face centres to the cube axes', () => {
    const centres = [0, 1, 2, 3, 4, 5].map((f) => latLngOfFaceST(f, 0.5, 0.5));
    expect(centres[0].lat).toBeCloseTo(0, 6);
    expect(centres[0].lng).toBeCloseTo(0, 6);
    expect(centres[1].lng).toBeCloseTo(90, 6);
    expect(centres[2].lat).toBeCloseTo(90, 6);
    expect(Math.abs(centres[3].lng)).toBeCloseTo(180, 6);
    expect(centres[4].lng).toBeCloseTo(-90, 6);
    expect(centres[5].lat).toBeCloseTo(-90, 6);
  });

  it('inverts faceSTAt to within a few centimetres', () => {
    const rand = mulberry32(32);
    for (let k = 0; k < 2000; k++) {
      const { lat, lng } = randomPoint(rand);
      if (Math.abs(lat) > 89.9) continue;
      const { face, s, t } = faceSTAt(lat, lng);
      const back = latLngOfFaceST(face, s, t);
      expect(Math.abs(back.lat - lat)).toBeLessThan(1e-6);
      const dLng = Math.abs(((back.lng - lng + 540) % 360) - 180);
      expect(dLng * Math.cos((lat * Math.PI) / 180)).toBeLessThan(1e-6);
    }
  });

  it('rejects a face outside 0 to 5 and an invalid latitude', () => {
    expect(() => latLngOfFaceST(6, 0.5, 0.5)).toThrow(/face 6 is not a cube face/);
    expect(() => faceSTAt(91, 0)).toThrow(/lat 91/);
  });
});
