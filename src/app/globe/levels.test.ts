import { describe, it, expect } from 'vitest';
import s2geometry from 's2-geometry';
import { cellsAtLevel, levelCellId, levelCellCenters, ordinalsPerCell } from './levels';
import { cellLevel, cellToken, ordinalRange, cellAt } from '../../core/cells';

// s2-geometry (an independent implementation) names a cell by face/level/position key; the
// k-th cell of level L in key order has key `face/` + the base-4 digits of its position.
const { S2 } = s2geometry as unknown as { S2: { keyToId(key: string): string; keyToLatLng(key: string): { lat: number; lng: number } } };
const oracleKey = (level: number, index: number) => {
  const perFace = 4 ** level;
  const face = Math.floor(index / perFace);
  const pos = (index % perFace).toString(4).padStart(level, '0');
  return level === 0 ? `${face}/` : `${face}/${pos}`;
};

describe('levels', () => {
  it('counts 6·4^L cells, 4^(10−L) level-10 cells each', () => {
    expect(cellsAtLevel(0)).toBe(6);
    expect(cellsAtLevel(4)).toBe(1536);
    expect(cellsAtLevel(10)).toBe(6_291_456);
    expect(ordinalsPerCell(7)).toBe(64);
  });

  it('lists cells in key order as s2-geometry numbers them', () => {
    for (const level of [1, 3, 6]) {
      for (const index of [0, 1, 5, cellsAtLevel(level) / 2 + 3, cellsAtLevel(level) - 1]) {
        const id = levelCellId(level, index);
        expect(cellLevel(id)).toBe(level);
        expect(cellToken(id), `L${level} #${index}`).toBe(cellToken(BigInt(S2.keyToId(oracleKey(level, index)))));
        expect(ordinalRange(id)).toEqual([index * ordinalsPerCell(level), (index + 1) * ordinalsPerCell(level) - 1]);
      }
    }
  });

  it('gives each cell centre inside its own cell, in key order across face edges', () => {
    const level = 3;
    const centres = levelCellCenters(level);
    expect(centres.length).toBe(2 * cellsAtLevel(level));
    for (let k = 0; k < cellsAtLevel(level); k++) {
      const lat = centres[2 * k];
      const lng = centres[2 * k + 1];
      const [first, last] = ordinalRange(levelCellId(level, k));
      const ordinal = Number(cellAt(lat, lng) >> 41n);
      expect(ordinal >= first && ordinal <= last, `L3 #${k}`).toBe(true);
    }
  });

  it('rejects levels and indices out of range', () => {
    expect(() => cellsAtLevel(11)).toThrow(/level 11 is not a drawing level/);
    expect(() => levelCellId(2, 96)).toThrow(/index 96 is out of range: level 2 has cells 0 to 95/);
    expect(() => levelCellCenters(9)).toThrow(/levels 0 to 8 only/);
  });
});
