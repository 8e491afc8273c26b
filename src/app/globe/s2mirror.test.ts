import { describe, it, expect } from 'vitest';
import { ordinalAt, Router, CELL_COUNT } from '../../core/index';
import { faceSTAt } from './faces';
import { mulberry32, randomPoint, fileWithCuts } from '../../core/testutil';
import { ordinalOfLatLng, shardOfOrdinal, s2Face, s2Ordinal, sinCos } from './s2mirror';
import { netPosition, netFaceAt } from './cubeNet';
import { S2_GLSL, SHADER_SEARCH_STEPS, hilbertLookup } from './s2glsl';

describe('the shader S2 port (through its JavaScript mirror)', () => {
  it('computes the same level-10 ordinal as the routing core on 20,000 seeded random points', () => {
    const rand = mulberry32(101);
    const bad: string[] = [];
    for (let k = 0; k < 20_000; k++) {
      const { lat, lng } = randomPoint(rand);
      const ours = ordinalOfLatLng(lat, lng);
      const core = ordinalAt(lat, lng);
      if (ours !== core) bad.push(`${lat},${lng}: ${ours} vs ${core}`);
    }
    expect(bad).toEqual([]);
  });

  it('agrees with the core on every face and near face edges and poles', () => {
    const pts = [[0, 0], [0, 90], [90, 0], [0, 180], [0, -90], [-90, 0], [0, 44.999], [0, 45.001], [35.2, 45], [-35.3, -135], [89.9999, 33], [0, -179.9999], [37.7749, -122.4194]];
    for (const [lat, lng] of pts) expect(ordinalOfLatLng(lat, lng), `${lat},${lng}`).toBe(ordinalAt(lat, lng));
  });

  it('finds the same shard as Router.indexOfOrdinal for files of 1 to 36 shards', () => {
    const rand = mulberry32(5);
    for (const n of [1, 2, 3, 17, 18, 36]) {
      const router = new Router(fileWithCuts(Array.from({ length: n - 1 }, () => 1 + Math.floor(rand() * (CELL_COUNT - 1)))));
      for (let k = 0; k < 2000; k++) {
        const o = k < 20 ? router.starts[k % router.numberOfShards] + (k % 2) - 1 : Math.floor(rand() * CELL_COUNT);
        if (o < 0) continue;
        expect(shardOfOrdinal(router.starts, router.numberOfShards, o)).toBe(router.indexOfOrdinal(o));
      }
    }
  });

  it('searches enough steps for the largest allowed shard count (1024)', () => {
    expect(2 ** SHADER_SEARCH_STEPS).toBeGreaterThanOrEqual(1024);
    const starts = Int32Array.from({ length: 1025 }, (_, i) => i * 6000);
    for (const o of [0, 5999, 6000, 6_143_999, 6_144_000 - 1, 1023 * 6000 + 5]) expect(shardOfOrdinal(starts, 1024, o)).toBe(Math.min(1023, Math.floor(o / 6000)));
  });

  it('builds a lookup table in which every orientation is a Hilbert curve: a permutation of 32×32 cells, each step to an edge neighbour', () => {
    const table = hilbertLookup();
    for (let o = 0; o < 4; o++) {
      const cellAtPos = new Array<[number, number]>(1024);
      for (let i = 0; i < 32; i++) for (let j = 0; j < 32; j++) cellAtPos[table[j * 128 + o * 32 + i] >> 2] = [i, j];
      expect(cellAtPos.filter(Boolean).length, `orientation ${o}`).toBe(1024);
      for (let p = 1; p < 1024; p++) {
        const [a, b] = [cellAtPos[p - 1], cellAtPos[p]];
        expect(Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]), `orientation ${o} step ${p}`).toBe(1);
      }
    }
  });

  it('reads the table the same way in GLSL and in the mirror', () => {
    expect(S2_GLSL).toContain('texelFetch(uHilbert, ivec2(((f & 1) << 5) | (i >> 5), j >> 5), 0)');
    expect(S2_GLSL).toContain('texelFetch(uHilbert, ivec2(((hi & 3) << 5) | (i & 31), j & 31), 0)');
    expect(s2Face([-0.2, 0.1, -0.9])).toBe(5);
    expect(s2Ordinal(0, 0, 0)).toBe(0);
    expect(s2Ordinal(5, 0.9999999, 0.9999999)).toBeGreaterThanOrEqual(5 * 1048576);
    expect(s2Ordinal(5, 0.9999999, 0.9999999)).toBeLessThan(6 * 1048576);
  });
});

describe('the shader sine and cosine', () => {
  it('stay within 2e-7 of Math.sin and Math.cos over [−2π, 2π] in float32 arithmetic', () => {
    let worst = 0;
    for (let k = 0; k <= 20_000; k++) {
      const x = Math.fround(-2 * Math.PI + (4 * Math.PI * k) / 20_000);
      const [s, c] = sinCos(x);
      worst = Math.max(worst, Math.abs(s - Math.sin(x)), Math.abs(c - Math.cos(x)));
    }
    expect(worst).toBeLessThan(2e-7);
  });

  it('match the GLSL constants', () => {
    expect(S2_GLSL).toContain('float r = (x - k * 1.5707963705062866) - k * -4.371139006309477e-8;');
    expect(Math.fround(Math.PI / 2)).toBe(1.5707963705062866);
    expect(Math.PI / 2 - Math.fround(Math.PI / 2)).toBe(-4.371139006309477e-8);
  });
});

describe('the unfolded cube', () => {
  it('inverts netPosition with netFaceAt', () => {
    const rand = mulberry32(9);
    for (let k = 0; k < 3000; k++) {
      const face = k % 6;
      const s = rand();
      const t = rand();
      const [x, y] = netPosition(face, s, t);
      const back = netFaceAt(x, y)!;
      expect(back.face).toBe(face);
      expect(back.s).toBeCloseTo(s, 9);
      expect(back.t).toBeCloseTo(t, 9);
    }
    expect(netFaceAt(5, 3)).toBeNull();
  });

  it('places neighbouring faces edge to edge: points a metre apart across a shared edge stay close in the net', () => {
    const rand = mulberry32(12);
    // Sample along each shared edge of face 0 and the equatorial row directly.
    const across = (lat1: number, lng1: number, lat2: number, lng2: number) => {
      const p = faceSTAt(lat1, lng1);
      const q = faceSTAt(lat2, lng2);
      const [x1, y1] = netPosition(p.face, p.s, p.t);
      const [x2, y2] = netPosition(q.face, q.s, q.t);
      return { faces: [p.face, q.face], gap: Math.hypot(x1 - x2, y1 - y2) };
    };
    const eps = 1e-5; // degrees, about a metre
    for (let k = 0; k < 200; k++) {
      const lat = (rand() - 0.5) * 60;
      for (const edgeLng of [-45, 45, 135]) {
        const r = across(lat * 0.5, edgeLng - eps, lat * 0.5, edgeLng + eps);
        expect(r.faces[0]).not.toBe(r.faces[1]);
        expect(r.gap).toBeLessThan(1e-4);
      }
      // Face 0's top and bottom edges: v = ±1, i.e. z = ±x; latitude atan(cos(lng)) on the edge.
      const lng = (rand() - 0.5) * 80;
      const edgeLat = (Math.atan(Math.cos((lng * Math.PI) / 180)) * 180) / Math.PI;
      for (const sign of [1, -1]) {
        const r = across(sign * (edgeLat - eps), lng, sign * (edgeLat + eps), lng);
        expect(r.faces).toEqual(sign > 0 ? [0, 2] : [0, 5]);
        expect(r.gap).toBeLessThan(1e-4);
      }
    }
  });
});
