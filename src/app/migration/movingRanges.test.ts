import { describe, it, expect } from 'vitest';
import { movingRanges } from './movingRanges';
import type { MigrationReading } from '../api/migration';
import type { MigrationStatus } from '../../server/wire';
import { cellFromOrdinal, cellToken, CELL_COUNT } from '../../core/index';

const tok = (ordinal: number) => cellToken(cellFromOrdinal(ordinal));
type Step = MigrationStatus['moves'][number]['step'];
const none = { restaurants: 0, dishes: 0 };
function reading(moves: [number, number | null, Step][]): MigrationReading {
  return {
    kind: 'moving',
    indexHash: null,
    migration: {
      epoch: 1, base: 'a', target: 'b', targetVersion: 2, startedAt: '', updatedAt: '',
      moves: moves.map(([s, e, step]) => ({ start: tok(s), end: e === null ? null : tok(e), from: 'x', to: 'y', fromShard: 0, toShard: 1, step, copied: none, verified: null })),
    },
  };
}

describe('the ranges the globe hatches during a migration', () => {
  it('are the moves between their first publish and their last, as ordinal pairs, a null end reaching the end of the key space', () => {
    const r = reading([[1500, 2000, 'copying'], [3000, 3100, 'pending'], [5000, 6000, 'switched'], [7000, 7001, 'done'], [CELL_COUNT - 10, null, 'deleting']]);
    expect(Array.from(movingRanges(r))).toEqual([1500, 2000, 5000, 6000, CELL_COUNT - 10, CELL_COUNT]);
  });

  it('are none when the index is settled, unknown or not read yet', () => {
    expect(movingRanges(null).length).toBe(0);
    expect(movingRanges({ kind: 'settled', indexHash: 'h', index: 'dishes' }).length).toBe(0);
    expect(movingRanges({ kind: 'unknown', message: 'down' }).length).toBe(0);
    expect(movingRanges(reading([[1, 2, 'pending'], [3, 4, 'done']])).length).toBe(0);
  });

  it('keep the first eight moving ranges, what the shader can hatch', () => {
    const moves = Array.from({ length: 10 }, (_, i) => [i * 100, i * 100 + 50, 'copying'] as [number, number, Step]);
    expect(Array.from(movingRanges(reading(moves)))).toEqual(moves.slice(0, 8).flatMap(([s, e]) => [s, e]));
  });
});
