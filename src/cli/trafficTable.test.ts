/**
 * geoshard traffic's per-cell table (cellsTable), on a bucket written here: the busiest cells per
 * kind with their per-second rates (counts over the bucket's seconds), the centre of each cell
 * (the core's cellCenter), at most TOP_CELLS a kind, and whether the counts are exact.
 */
import { describe, it, expect } from 'vitest';
import { cellsTable, TOP_CELLS } from './commands/traffic.ts';
import { rangeCounts, type TrafficBucket } from '../core/traffic.ts';
import { cellCenter, cellFromOrdinal, cellToken, ordinalAt } from '../core/cells.ts';

const sf = cellToken(cellFromOrdinal(ordinalAt(37.7749, -122.4194)));
const ny = cellToken(cellFromOrdinal(ordinalAt(40.7128, -74.006)));
const bucket = (cells: TrafficBucket['cells'], cellsError?: TrafficBucket['cellsError']): TrafficBucket => ({
  start: '2026-12-06T00:00:00.000Z',
  end: '2026-12-06T00:00:20.000Z',
  seconds: 20,
  resets: 0,
  ranges: [rangeCounts(0, 0, 0, 20)],
  cells,
  ...(cellsError ? { cellsError } : {}),
});

describe('cellsTable', () => {
  it('lists the busiest cells per kind, per second, with their centres, and says the counts are exact', () => {
    const out = cellsTable(bucket([{ cell: sf, searches: 300, writes: 2 }, { cell: ny, searches: 40, writes: 0 }]));
    const lines = out.trim().split('\n');
    expect(lines[0]).toBe('per cell (the geoshard plugin\'s counts, exact): 2 cells');
    const c = cellCenter(cellFromOrdinal(ordinalAt(37.7749, -122.4194)));
    // 300 searches over 20 s: 15 a second; San Francisco first.
    expect(lines[2]).toBe(`${sf.padEnd(10)}  ${'15.0'.padStart(10)}  ${c.lat.toFixed(3)}, ${c.lng.toFixed(3)}`);
    expect(lines[3].startsWith(`${ny.padEnd(10)}  ${'2.00'.padStart(10)}`)).toBe(true);
    // Writes: only the cell written into, 2 over 20 s.
    expect(lines[4]).toMatch(/writes\/s/);
    expect(lines[5].startsWith(`${sf.padEnd(10)}  ${'0.10'.padStart(10)}`)).toBe(true);
    expect(lines).toHaveLength(6);
  });

  it(`lists at most ${TOP_CELLS} a kind, and the error where the counts are not exact`, () => {
    const many = Array.from({ length: 25 }, (_, k) => ({ cell: cellToken(cellFromOrdinal(1000 + k)), searches: 100 + k, writes: 0 }));
    const out = cellsTable(bucket(many, { searches: 3, writes: 0 }));
    expect(out).toContain('each at most 3 searches and 0 writes above the truth): 25 cells');
    const rows = out.trim().split('\n').slice(2);
    expect(rows).toHaveLength(TOP_CELLS);
    expect(rows[0].startsWith(cellToken(cellFromOrdinal(1024)))).toBe(true);
  });
});
