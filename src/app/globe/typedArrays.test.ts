import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ordinalAt, Router, CELL_COUNT } from '../../core/index';
import { levelCellCenters, cellsAtLevel } from './levels';
import { fileWithCuts } from '../../core/testutil';
import { startsTexels, paletteTexels, hilbertSegments, coastlineSegments, latLngGrid, cubePatches, ribbonBins, slerpLatLng, angleDeg, type Topology } from './typedArrays';
import { shardPalette } from '../shell/palette';

const DEG = 180 / Math.PI;

describe('typed arrays for the scene', () => {
  it('passes range starts to the shader exactly and refuses values float32 cannot hold', () => {
    const router = new Router(fileWithCuts([1000, 2_000_000, CELL_COUNT - 1]));
    expect(Array.from(startsTexels(router.starts))).toEqual(Array.from(router.starts));
    expect(() => startsTexels(Int32Array.of(0, 2 ** 24 + 1))).toThrow(/starts\[1\] = 16777217 is not exact in float32/);
  });

  it('packs palette colors as opaque RGBA bytes', () => {
    // Channels in [0, 1] become bytes (x 255), alpha always 255; the palette's own colors are tested in palette.test.ts.
    const bytes = paletteTexels([[1, 0, 0.2], [0, 1, 0.6]]);
    expect(Array.from(bytes)).toEqual([255, 0, 51, 255, 0, 255, 153, 255]);
    expect(paletteTexels(shardPalette(3)).length).toBe(12);
  });

  it('draws the Hilbert curve through every cell centre in key order, colored by the ordinal of the nearer cell', () => {
    const level = 2;
    const centres = levelCellCenters(level);
    const segs = hilbertSegments(centres, level);
    const per = 4 ** (10 - level);
    // Every segment starts where the previous one ended: one unbroken curve.
    for (let v = 2; v < segs.count; v += 2) {
      expect(segs.ll[2 * v]).toBeCloseTo(segs.ll[2 * v - 2], 6);
      expect(segs.ll[2 * v + 1]).toBeCloseTo(segs.ll[2 * v - 1], 6);
    }
    // It passes through all 96 centres, in order, and each vertex's ordinal lies in the cell it is nearest to.
    let next = 0;
    for (let v = 0; v < segs.count && next < cellsAtLevel(level); v++) {
      if (Math.abs(segs.ll[2 * v] * DEG - centres[2 * next]) < 1e-4 && Math.abs(segs.ll[2 * v + 1] * DEG - centres[2 * next + 1]) < 1e-4) {
        expect(Math.floor(segs.ordinal[v] / per)).toBe(next);
        next++;
      }
    }
    expect(next).toBe(cellsAtLevel(level));
    // The other end of each vertex's segment is stored beside it.
    expect(segs.other[0]).toBe(segs.ll[2]);
    expect(segs.other[2]).toBe(segs.ll[0]);
  });

  it('splits long steps along the great circle so no piece is longer than the limit', () => {
    const segs = hilbertSegments(levelCellCenters(0), 0, 2);
    for (let v = 0; v < segs.count; v += 2) {
      expect(angleDeg(segs.ll[2 * v] * DEG, segs.ll[2 * v + 1] * DEG, segs.ll[2 * v + 2] * DEG, segs.ll[2 * v + 3] * DEG)).toBeLessThanOrEqual(2.0001);
    }
    const [lat, lng] = slerpLatLng(0, 0, 0, 90, 0.5);
    expect(lat).toBeCloseTo(0, 9);
    expect(lng).toBeCloseTo(45, 9);
  });

  it('gives each curve vertex an ordinal whose cell holds that centre', () => {
    const level = 5;
    const centres = levelCellCenters(level);
    const segs = hilbertSegments(centres, level, 100);
    const per = 4 ** (10 - level);
    for (let v = 0; v < segs.count; v += 97) {
      const o = ordinalAt(segs.ll[2 * v] * DEG, segs.ll[2 * v + 1] * DEG);
      expect(Math.floor(o / per)).toBe(Math.floor(segs.ordinal[v] / per));
    }
  });

  it('decodes the world-atlas land topology into coastline segments and drops the date-line and pole closures', () => {
    const require = createRequire(import.meta.url);
    const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-110m.json'), 'utf8')) as Topology;
    const segs = coastlineSegments(topo);
    expect(segs.count).toBeGreaterThan(8000);
    let nearSF = 0;
    for (let v = 0; v < segs.count; v++) {
      const lat = segs.ll[2 * v] * DEG;
      const lng = segs.ll[2 * v + 1] * DEG;
      expect(lat).toBeGreaterThanOrEqual(-90);
      expect(lat).toBeLessThanOrEqual(90);
      expect(Math.abs(lat) > 89.9 && Math.abs(segs.other[2 * v] * DEG) > 89.9).toBe(false);
      if (Math.abs(lat - 37.8) < 1.5 && Math.abs(lng + 122.5) < 1.5) nearSF++;
    }
    expect(nearSF).toBeGreaterThan(0);
    expect(() => coastlineSegments({ type: 'FeatureCollection' } as unknown as Topology)).toThrow(/expected a TopoJSON Topology/);
  });

  it('builds closed surface meshes with valid indices', () => {
    const grid = latLngGrid(8, 4);
    expect(grid.params.length).toBe(9 * 5 * 3);
    expect(Math.max(...grid.index)).toBe(9 * 5 - 1);
    const cube = cubePatches(4);
    expect(cube.params.length).toBe(6 * 25 * 3);
    expect(cube.index.length).toBe(6 * 16 * 6);
    expect(Math.max(...cube.index)).toBe(6 * 25 - 1);
    expect(cube.params[cube.params.length - 3]).toBe(5);
  });

  it('sums cell weights into equal stretches of the key space', () => {
    const bins = ribbonBins([0, 5, 10, 99], [1, 2, 4, 8], 4, 0, 100);
    expect(Array.from(bins)).toEqual([7, 0, 0, 8]);
    expect(Array.from(ribbonBins([0, 5, 10, 99], [1, 2, 4, 8], 2, 5, 15))).toEqual([2, 4]);
  });
});
